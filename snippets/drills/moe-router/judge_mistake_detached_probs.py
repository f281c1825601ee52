import _judge
import _mistake_detached_probs

_judge.TESTS.report(_mistake_detached_probs)
