import _judge
import _mistake_l2_weight_decay

_judge.TESTS.report(_mistake_l2_weight_decay)
