import _judge
import _mistake_unbiased_variance

_judge.TESTS.report(_mistake_unbiased_variance)
