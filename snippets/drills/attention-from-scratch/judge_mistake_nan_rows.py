import _judge
import _mistake_nan_rows

_judge.TESTS.report(_mistake_nan_rows)
