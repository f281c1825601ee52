import _judge
import _mistake_kthvalue_smallest

_judge.TESTS.report(_mistake_kthvalue_smallest)
