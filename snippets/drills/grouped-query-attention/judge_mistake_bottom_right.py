import _judge
import _mistake_bottom_right

_judge.TESTS.report(_mistake_bottom_right)
