import _judge
import _mistake_global_rng

_judge.TESTS.report(_mistake_global_rng)
