import _judge
import _mistake_batch_dims

_judge.TESTS.report(_mistake_batch_dims)
