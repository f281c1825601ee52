import _judge
import _mistake_no_scale

_judge.TESTS.report(_mistake_no_scale)
