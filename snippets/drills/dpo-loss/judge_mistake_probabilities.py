import _judge
import _mistake_probabilities

_judge.TESTS.report(_mistake_probabilities)
