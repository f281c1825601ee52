import _judge
import _mistake_weight_none

_judge.TESTS.report(_mistake_weight_none)
