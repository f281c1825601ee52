import _judge
import _mistake_concatenate

_judge.TESTS.report(_mistake_concatenate)
