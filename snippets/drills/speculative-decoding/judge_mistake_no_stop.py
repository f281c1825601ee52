import _judge
import _mistake_no_stop

_judge.TESTS.report(_mistake_no_stop)
