import _judge
import _mistake_ctx_attributes

_judge.TESTS.report(_mistake_ctx_attributes)
