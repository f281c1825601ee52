import _judge
import _mistake_last_peeled_off

_judge.TESTS.report(_mistake_last_peeled_off)
