import _judge
import _mistake_zero_grad_in_loop

_judge.TESTS.report(_mistake_zero_grad_in_loop)
