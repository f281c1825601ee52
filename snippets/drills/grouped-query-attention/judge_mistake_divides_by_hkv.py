import _judge
import _mistake_divides_by_hkv

_judge.TESTS.report(_mistake_divides_by_hkv)
