import _judge
import _mistake_merge_transposed

_judge.TESTS.report(_mistake_merge_transposed)
