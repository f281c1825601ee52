import _judge
import _mistake_exp_overflow

_judge.TESTS.report(_mistake_exp_overflow)
