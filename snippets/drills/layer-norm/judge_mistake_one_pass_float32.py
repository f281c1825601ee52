import _judge
import _mistake_one_pass_float32

_judge.TESTS.report(_mistake_one_pass_float32)
