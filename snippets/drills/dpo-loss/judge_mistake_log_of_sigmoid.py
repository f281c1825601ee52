import _judge
import _mistake_log_of_sigmoid

_judge.TESTS.report(_mistake_log_of_sigmoid)
