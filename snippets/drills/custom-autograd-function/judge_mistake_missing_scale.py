import _judge
import _mistake_missing_scale

_judge.TESTS.report(_mistake_missing_scale)
