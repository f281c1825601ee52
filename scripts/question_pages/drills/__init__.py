"""Coding drills: the implement-it round. A drill lives in `snippets/drills/<id>/` as a starter, a
reference, the common mistakes and a judge; the engine records the judge's verdict on each
(`judge_*.py` snippets), and this package reads the bank, proves the records say what the drill
claims, and bundles the one file a reader downloads."""
