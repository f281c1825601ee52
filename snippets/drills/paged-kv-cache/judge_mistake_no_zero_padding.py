import _judge
import _mistake_no_zero_padding

_judge.TESTS.report(_mistake_no_zero_padding)
