import _judge
import _mistake_mask_zero_not_inf

_judge.TESTS.report(_mistake_mask_zero_not_inf)
