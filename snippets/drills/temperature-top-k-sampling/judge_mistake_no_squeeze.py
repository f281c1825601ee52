import _judge
import _mistake_no_squeeze

_judge.TESTS.report(_mistake_no_squeeze)
