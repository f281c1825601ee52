import _judge
import _mistake_no_cast_back

_judge.TESTS.report(_mistake_no_cast_back)
