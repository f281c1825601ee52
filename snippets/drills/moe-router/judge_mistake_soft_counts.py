import _judge
import _mistake_soft_counts

_judge.TESTS.report(_mistake_soft_counts)
