import _judge
import _mistake_merge_in_place

_judge.TESTS.report(_mistake_merge_in_place)
