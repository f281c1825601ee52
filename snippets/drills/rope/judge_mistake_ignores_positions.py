import _judge
import _mistake_ignores_positions

_judge.TESTS.report(_mistake_ignores_positions)
