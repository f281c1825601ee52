import _judge
import _mistake_in_place

_judge.TESTS.report(_mistake_in_place)
