import _judge
import _mistake_p_from_topk

_judge.TESTS.report(_mistake_p_from_topk)
