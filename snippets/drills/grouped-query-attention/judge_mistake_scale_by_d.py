import _judge
import _mistake_scale_by_d

_judge.TESTS.report(_mistake_scale_by_d)
