import _judge
import _mistake_residual_swapped

_judge.TESTS.report(_mistake_residual_swapped)
