import _judge
import _mistake_defaults_lr

_judge.TESTS.report(_mistake_defaults_lr)
