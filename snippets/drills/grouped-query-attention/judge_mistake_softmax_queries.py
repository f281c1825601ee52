import _judge
import _mistake_softmax_queries

_judge.TESTS.report(_mistake_softmax_queries)
