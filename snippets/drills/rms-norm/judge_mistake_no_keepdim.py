import _judge
import _mistake_no_keepdim

_judge.TESTS.report(_mistake_no_keepdim)
