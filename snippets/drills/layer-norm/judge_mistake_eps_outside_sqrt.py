import _judge
import _mistake_eps_outside_sqrt

_judge.TESTS.report(_mistake_eps_outside_sqrt)
