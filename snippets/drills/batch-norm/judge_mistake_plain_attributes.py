import _judge
import _mistake_plain_attributes

_judge.TESTS.report(_mistake_plain_attributes)
