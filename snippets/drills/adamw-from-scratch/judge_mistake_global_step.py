import _judge
import _mistake_global_step

_judge.TESTS.report(_mistake_global_step)
