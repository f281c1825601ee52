import _judge
import _mistake_cat_wrong_dim

_judge.TESTS.report(_mistake_cat_wrong_dim)
