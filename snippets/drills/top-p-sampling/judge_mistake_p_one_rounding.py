import _judge
import _mistake_p_one_rounding

_judge.TESTS.report(_mistake_p_one_rounding)
