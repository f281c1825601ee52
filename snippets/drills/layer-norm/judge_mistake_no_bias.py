import _judge
import _mistake_no_bias

_judge.TESTS.report(_mistake_no_bias)
