import _judge
import _mistake_no_scatter

_judge.TESTS.report(_mistake_no_scatter)
