import _judge
import _mistake_unmasked_sum

_judge.TESTS.report(_mistake_unmasked_sum)
