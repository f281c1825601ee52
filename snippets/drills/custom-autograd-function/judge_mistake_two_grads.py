import _judge
import _mistake_two_grads

_judge.TESTS.report(_mistake_two_grads)
