"""Split snippets over CI runners by recorded duration, longest first, onto the least-loaded shard.

The split depends only on the committed records and the snippet paths, so the same command gives
the same split on a laptop and on every runner of a matrix.
"""

from __future__ import annotations

from collections.abc import Sequence

DEFAULT_SECONDS = 30.0  # what a snippet with no record yet is assumed to cost


def parse_shard(text: str) -> tuple[int, int]:
    """'K/N' with 1 <= K <= N, as a (K, N) pair."""
    try:
        k_text, n_text = text.split("/")
        k, n = int(k_text), int(n_text)
    except ValueError:
        raise ValueError(f"--shard '{text}' is not K/N (for example 2/4)") from None
    if not 1 <= k <= n:
        raise ValueError(f"--shard '{text}': K must be between 1 and N")
    return k, n


def assign(durations: Sequence[tuple[str, float | None]], shards: int) -> list[list[str]]:
    """Longest-processing-time-first: each item goes to the shard with the least time so far."""
    items = [(name, DEFAULT_SECONDS if seconds is None else seconds) for name, seconds in durations]
    items.sort(key=lambda item: (-item[1], item[0]))
    loads = [0.0] * shards
    buckets: list[list[str]] = [[] for _ in range(shards)]
    for name, seconds in items:
        target = min(range(shards), key=lambda index: (loads[index], index))
        loads[target] += seconds
        buckets[target].append(name)
    return [sorted(bucket) for bucket in buckets]
