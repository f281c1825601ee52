import _judge
import _mistake_log_of_softmax

_judge.TESTS.report(_mistake_log_of_softmax)
