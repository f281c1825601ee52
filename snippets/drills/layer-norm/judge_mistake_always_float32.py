import _judge
import _mistake_always_float32

_judge.TESTS.report(_mistake_always_float32)
