import _judge
import _mistake_no_factor_e

_judge.TESTS.report(_mistake_no_factor_e)
