import _judge
import _mistake_mean_over_tokens

_judge.TESTS.report(_mistake_mean_over_tokens)
