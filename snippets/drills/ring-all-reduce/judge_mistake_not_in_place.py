import _judge
import _mistake_not_in_place

_judge.TESTS.report(_mistake_not_in_place)
