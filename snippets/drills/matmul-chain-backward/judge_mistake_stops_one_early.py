import _judge
import _mistake_stops_one_early

_judge.TESTS.report(_mistake_stops_one_early)
