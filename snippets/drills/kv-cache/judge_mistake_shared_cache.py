import _judge
import _mistake_shared_cache

_judge.TESTS.report(_mistake_shared_cache)
