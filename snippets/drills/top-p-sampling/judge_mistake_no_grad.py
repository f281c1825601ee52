import _judge
import _mistake_no_grad

_judge.TESTS.report(_mistake_no_grad)
