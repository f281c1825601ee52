import _judge
import _mistake_no_zero_grad

_judge.TESTS.report(_mistake_no_zero_grad)
