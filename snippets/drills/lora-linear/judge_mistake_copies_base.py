import _judge
import _mistake_copies_base

_judge.TESTS.report(_mistake_copies_base)
