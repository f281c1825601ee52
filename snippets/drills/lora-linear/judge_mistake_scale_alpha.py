import _judge
import _mistake_scale_alpha

_judge.TESTS.report(_mistake_scale_alpha)
