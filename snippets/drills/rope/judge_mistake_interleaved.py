import _judge
import _mistake_interleaved

_judge.TESTS.report(_mistake_interleaved)
