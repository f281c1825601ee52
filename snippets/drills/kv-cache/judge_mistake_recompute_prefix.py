import _judge
import _mistake_recompute_prefix

_judge.TESTS.report(_mistake_recompute_prefix)
