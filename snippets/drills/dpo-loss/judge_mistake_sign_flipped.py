import _judge
import _mistake_sign_flipped

_judge.TESTS.report(_mistake_sign_flipped)
