import _judge
import _mistake_rotate_sign

_judge.TESTS.report(_mistake_rotate_sign)
