import _judge
import _mistake_eval_batch_stats

_judge.TESTS.report(_mistake_eval_batch_stats)
