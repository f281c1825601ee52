import _judge
import _mistake_base_not_frozen

_judge.TESTS.report(_mistake_base_not_frozen)
