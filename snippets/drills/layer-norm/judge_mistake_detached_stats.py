import _judge
import _mistake_detached_stats

_judge.TESTS.report(_mistake_detached_stats)
