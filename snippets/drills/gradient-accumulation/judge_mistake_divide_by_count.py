import _judge
import _mistake_divide_by_count

_judge.TESTS.report(_mistake_divide_by_count)
