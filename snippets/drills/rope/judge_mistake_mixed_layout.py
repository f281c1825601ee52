import _judge
import _mistake_mixed_layout

_judge.TESTS.report(_mistake_mixed_layout)
