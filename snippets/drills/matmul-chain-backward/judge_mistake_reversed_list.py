import _judge
import _mistake_reversed_list

_judge.TESTS.report(_mistake_reversed_list)
