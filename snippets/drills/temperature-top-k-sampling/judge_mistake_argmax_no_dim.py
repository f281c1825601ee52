import _judge
import _mistake_argmax_no_dim

_judge.TESTS.report(_mistake_argmax_no_dim)
