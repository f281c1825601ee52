import _judge
import _mistake_float32_angles

_judge.TESTS.report(_mistake_float32_angles)
