import _judge
import _mistake_append_twice

_judge.TESTS.report(_mistake_append_twice)
