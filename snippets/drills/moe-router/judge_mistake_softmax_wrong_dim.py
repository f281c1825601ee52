import _judge
import _mistake_softmax_wrong_dim

_judge.TESTS.report(_mistake_softmax_wrong_dim)
