import _judge
import _mistake_freq_exponent

_judge.TESTS.report(_mistake_freq_exponent)
