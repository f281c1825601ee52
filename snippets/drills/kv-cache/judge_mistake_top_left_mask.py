import _judge
import _mistake_top_left_mask

_judge.TESTS.report(_mistake_top_left_mask)
