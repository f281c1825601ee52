import _judge
import _mistake_float64_result

_judge.TESTS.report(_mistake_float64_result)
