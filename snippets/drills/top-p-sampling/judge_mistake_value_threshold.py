import _judge
import _mistake_value_threshold

_judge.TESTS.report(_mistake_value_threshold)
