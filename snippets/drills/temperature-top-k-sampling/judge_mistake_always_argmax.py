import _judge
import _mistake_always_argmax

_judge.TESTS.report(_mistake_always_argmax)
