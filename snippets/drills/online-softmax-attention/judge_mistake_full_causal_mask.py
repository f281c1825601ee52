import _judge
import _mistake_full_causal_mask

_judge.TESTS.report(_mistake_full_causal_mask)
