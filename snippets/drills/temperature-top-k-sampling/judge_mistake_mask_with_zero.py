import _judge
import _mistake_mask_with_zero

_judge.TESTS.report(_mistake_mask_with_zero)
