import _judge
import _mistake_no_max

_judge.TESTS.report(_mistake_no_max)
