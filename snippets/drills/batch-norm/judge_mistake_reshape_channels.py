import _judge
import _mistake_reshape_channels

_judge.TESTS.report(_mistake_reshape_channels)
