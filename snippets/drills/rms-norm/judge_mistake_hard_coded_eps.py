import _judge
import _mistake_hard_coded_eps

_judge.TESTS.report(_mistake_hard_coded_eps)
