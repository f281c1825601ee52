import _judge
import _mistake_causal_diagonal

_judge.TESTS.report(_mistake_causal_diagonal)
