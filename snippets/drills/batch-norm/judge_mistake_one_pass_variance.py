import _judge
import _mistake_one_pass_variance

_judge.TESTS.report(_mistake_one_pass_variance)
