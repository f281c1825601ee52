import _judge
import _mistake_contiguous_blocks

_judge.TESTS.report(_mistake_contiguous_blocks)
