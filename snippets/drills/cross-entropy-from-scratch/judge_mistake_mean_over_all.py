import _judge
import _mistake_mean_over_all

_judge.TESTS.report(_mistake_mean_over_all)
