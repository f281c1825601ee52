import _judge
import _mistake_leading_dims_only

_judge.TESTS.report(_mistake_leading_dims_only)
