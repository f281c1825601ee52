import _judge
import _mistake_broadcast_heads

_judge.TESTS.report(_mistake_broadcast_heads)
