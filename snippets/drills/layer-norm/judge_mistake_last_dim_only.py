import _judge
import _mistake_last_dim_only

_judge.TESTS.report(_mistake_last_dim_only)
