import _judge
import _mistake_transpose_order

_judge.TESTS.report(_mistake_transpose_order)
