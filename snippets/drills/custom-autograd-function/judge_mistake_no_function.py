import _judge
import _mistake_no_function

_judge.TESTS.report(_mistake_no_function)
