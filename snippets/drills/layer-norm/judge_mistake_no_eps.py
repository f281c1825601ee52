import _judge
import _mistake_no_eps

_judge.TESTS.report(_mistake_no_eps)
