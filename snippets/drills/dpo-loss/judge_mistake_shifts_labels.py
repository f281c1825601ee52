import _judge
import _mistake_shifts_labels

_judge.TESTS.report(_mistake_shifts_labels)
