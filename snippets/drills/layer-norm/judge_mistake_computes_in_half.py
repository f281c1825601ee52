import _judge
import _mistake_computes_in_half

_judge.TESTS.report(_mistake_computes_in_half)
