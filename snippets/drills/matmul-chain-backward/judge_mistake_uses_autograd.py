import _judge
import _mistake_uses_autograd

_judge.TESTS.report(_mistake_uses_autograd)
