import _judge
import _mistake_in_place_scale

_judge.TESTS.report(_mistake_in_place_scale)
