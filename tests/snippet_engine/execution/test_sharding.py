import pytest

from snippet_engine.execution.sharding import DEFAULT_SECONDS, assign, parse_shard


def test_longest_first_balances_load() -> None:
    durations = [("a", 10.0), ("b", 9.0), ("c", 5.0), ("d", 4.0), ("e", 1.0)]
    shards = assign(durations, 2)
    loads = [sum(dict(durations)[n] for n in shard) for shard in shards]
    assert sorted(loads) == [14.0, 15.0]
    assert sorted(n for shard in shards for n in shard) == ["a", "b", "c", "d", "e"]


def test_split_is_deterministic_and_unrecorded_get_a_default() -> None:
    durations = [(f"s{i}", None if i % 3 == 0 else float(i)) for i in range(20)]
    assert assign(durations, 3) == assign(list(reversed(durations)), 3)
    # An unrecorded snippet weighs DEFAULT_SECONDS: just more than two snippets of slightly less,
    # so it is placed first and alone (at zero cost it would be placed last, beside one of them).
    near = DEFAULT_SECONDS - 1
    assert assign([("new", None), ("b", near), ("c", near)], 2) == [["new"], ["b", "c"]]


def test_parse_shard() -> None:
    assert parse_shard("2/4") == (2, 4)
    for bad in ("0/2", "3/2", "x", "1/0", "1-2"):
        with pytest.raises(ValueError, match="--shard"):
            parse_shard(bad)
