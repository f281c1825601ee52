import _judge
import _mistake_ascending_sort

_judge.TESTS.report(_mistake_ascending_sort)
