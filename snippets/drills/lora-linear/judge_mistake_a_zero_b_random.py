import _judge
import _mistake_a_zero_b_random

_judge.TESTS.report(_mistake_a_zero_b_random)
