import _judge
import _mistake_squares_in_half

_judge.TESTS.report(_mistake_squares_in_half)
