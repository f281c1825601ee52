import _judge
import _mistake_top_k_over_vocab

_judge.TESTS.report(_mistake_top_k_over_vocab)
