import _judge
import _mistake_norm_no_eps

_judge.TESTS.report(_mistake_norm_no_eps)
