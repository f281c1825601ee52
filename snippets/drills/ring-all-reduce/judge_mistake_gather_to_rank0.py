import _judge
import _mistake_gather_to_rank0

_judge.TESTS.report(_mistake_gather_to_rank0)
