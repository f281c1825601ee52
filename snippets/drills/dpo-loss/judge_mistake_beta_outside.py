import _judge
import _mistake_beta_outside

_judge.TESTS.report(_mistake_beta_outside)
