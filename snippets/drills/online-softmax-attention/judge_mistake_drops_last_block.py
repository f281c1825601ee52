import _judge
import _mistake_drops_last_block

_judge.TESTS.report(_mistake_drops_last_block)
