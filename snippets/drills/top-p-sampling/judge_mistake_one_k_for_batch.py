import _judge
import _mistake_one_k_for_batch

_judge.TESTS.report(_mistake_one_k_for_batch)
