import _judge
import _reference

_judge.TESTS.report(_reference)
