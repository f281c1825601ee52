import _judge
import _mistake_keeps_k_plus_one

_judge.TESTS.report(_mistake_keeps_k_plus_one)
