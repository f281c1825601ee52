import _judge
import _mistake_wrong_neighbour

_judge.TESTS.report(_mistake_wrong_neighbour)
