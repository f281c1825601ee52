import _judge
import _mistake_inverted_ratio

_judge.TESTS.report(_mistake_inverted_ratio)
