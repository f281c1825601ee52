import _judge
import _starter

_judge.TESTS.report(_starter)
