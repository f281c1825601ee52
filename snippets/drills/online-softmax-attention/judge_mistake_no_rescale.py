import _judge
import _mistake_no_rescale

_judge.TESTS.report(_mistake_no_rescale)
