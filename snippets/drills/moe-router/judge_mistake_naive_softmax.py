import _judge
import _mistake_naive_softmax

_judge.TESTS.report(_mistake_naive_softmax)
