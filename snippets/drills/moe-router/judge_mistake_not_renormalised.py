import _judge
import _mistake_not_renormalised

_judge.TESTS.report(_mistake_not_renormalised)
