import _judge
import _mistake_mask_multiply

_judge.TESTS.report(_mistake_mask_multiply)
