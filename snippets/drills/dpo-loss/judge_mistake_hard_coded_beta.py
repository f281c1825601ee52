import _judge
import _mistake_hard_coded_beta

_judge.TESTS.report(_mistake_hard_coded_beta)
