import _judge
import _mistake_calls_all_reduce

_judge.TESTS.report(_mistake_calls_all_reduce)
