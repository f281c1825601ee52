import _judge
import _mistake_hardcoded_ignore

_judge.TESTS.report(_mistake_hardcoded_ignore)
