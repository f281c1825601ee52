import _judge
import _mistake_tanh_derivative

_judge.TESTS.report(_mistake_tanh_derivative)
