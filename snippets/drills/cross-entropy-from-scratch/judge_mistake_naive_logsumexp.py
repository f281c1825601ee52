import _judge
import _mistake_naive_logsumexp

_judge.TESTS.report(_mistake_naive_logsumexp)
