import _judge
import _mistake_both_random

_judge.TESTS.report(_mistake_both_random)
