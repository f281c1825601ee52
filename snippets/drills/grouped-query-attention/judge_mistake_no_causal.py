import _judge
import _mistake_no_causal

_judge.TESTS.report(_mistake_no_causal)
