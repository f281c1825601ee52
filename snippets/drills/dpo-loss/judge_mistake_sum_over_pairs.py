import _judge
import _mistake_sum_over_pairs

_judge.TESTS.report(_mistake_sum_over_pairs)
