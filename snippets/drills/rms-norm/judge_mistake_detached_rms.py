import _judge
import _mistake_detached_rms

_judge.TESTS.report(_mistake_detached_rms)
