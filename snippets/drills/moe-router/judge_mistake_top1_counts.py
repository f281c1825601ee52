import _judge
import _mistake_top1_counts

_judge.TESTS.report(_mistake_top1_counts)
