import _judge
import _mistake_averages

_judge.TESTS.report(_mistake_averages)
