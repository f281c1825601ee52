import _judge
import _mistake_full_scores

_judge.TESTS.report(_mistake_full_scores)
