import _judge
import _mistake_sum_of_means

_judge.TESTS.report(_mistake_sum_of_means)
