import _judge
import _mistake_dtype_promotion

_judge.TESTS.report(_mistake_dtype_promotion)
