import _judge
import _mistake_exactly_k_indices

_judge.TESTS.report(_mistake_exactly_k_indices)
