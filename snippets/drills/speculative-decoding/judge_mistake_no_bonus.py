import _judge
import _mistake_no_bonus

_judge.TESTS.report(_mistake_no_bonus)
