import _judge
import _mistake_subtracts_mean

_judge.TESTS.report(_mistake_subtracts_mean)
