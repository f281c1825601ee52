import _judge
import _mistake_chunk_off_by_one

_judge.TESTS.report(_mistake_chunk_off_by_one)
