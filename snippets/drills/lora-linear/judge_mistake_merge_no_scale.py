import _judge
import _mistake_merge_no_scale

_judge.TESTS.report(_mistake_merge_no_scale)
