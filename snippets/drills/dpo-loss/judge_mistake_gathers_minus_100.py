import _judge
import _mistake_gathers_minus_100

_judge.TESTS.report(_mistake_gathers_minus_100)
