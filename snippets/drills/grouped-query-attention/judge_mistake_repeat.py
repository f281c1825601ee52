import _judge
import _mistake_repeat

_judge.TESTS.report(_mistake_repeat)
