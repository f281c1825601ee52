import _judge
import _mistake_no_transpose

_judge.TESTS.report(_mistake_no_transpose)
