import _judge
import _mistake_momentum_reversed

_judge.TESTS.report(_mistake_momentum_reversed)
