import _judge
import _mistake_merge_drops_bias

_judge.TESTS.report(_mistake_merge_drops_bias)
