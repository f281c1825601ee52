import _judge
import _mistake_eval_updates

_judge.TESTS.report(_mistake_eval_updates)
