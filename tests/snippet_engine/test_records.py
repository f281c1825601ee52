import multiprocessing
import os
from pathlib import Path

import pytest

from snippet_engine.records import (
    Record,
    RecordError,
    mark_stale,
    parse_record,
    read_record,
    store,
    write_atomic,
)


def make(output: str = "tensor([1.])\n", **changes) -> Record:
    base = dict(snippet="snippets/t/a.py", device="cpu", status="ok", output=output, key="k1",
                source_sha256="s1", engine="1", torch="2.13.0+cpu", python="3.11.7",
                hardware="Some CPU", duration_s=1.5, peak_rss_mib=300, recorded="2026-11-30T00:00:00Z")
    base.update(changes)
    return Record(**base)


def test_round_trip_keeps_output_verbatim() -> None:
    record = make(output="line 1\n--- not a separator\n\nemoji ✓ <b>\n", helpers={"snippets/_h.py": "abc"})
    text = record.render()
    assert "emoji ✓ <b>\n" in text  # plain text, not escaped
    assert parse_record(text) == record


def test_damaged_records_are_reported_with_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "a.cpu.txt"
    path.write_text(make().render().split("---")[0])
    with pytest.raises(RecordError, match="truncated"):
        read_record(path)
    path.write_text("hello\n")
    with pytest.raises(RecordError, match=r"a\.cpu\.txt:1: not a snippet record"):
        read_record(path)


def test_store_leaves_an_unchanged_record_untouched(tmp_path: Path) -> None:
    path = tmp_path / "a.cpu.txt"
    assert store(path, make())
    before = path.stat().st_mtime_ns
    # Same result on another day, another machine, another speed: nothing to commit.
    assert not store(path, make(duration_s=9.0, recorded="2027-01-01T00:00:00Z", hardware="Other"))
    assert path.stat().st_mtime_ns == before
    assert store(path, make(output="tensor([2.])\n"))
    assert read_record(path).output == "tensor([2.])\n"


def test_mark_stale_keeps_the_good_output(tmp_path: Path) -> None:
    path = tmp_path / "a.cpu.txt"
    store(path, make())
    assert mark_stale(path, "the last run failed: boom")
    record = read_record(path)
    assert record.is_stale and record.output == "tensor([1.])\n" and "boom" in record.stale
    assert not mark_stale(tmp_path / "none.cpu.txt", "x")  # nothing recorded, nothing invented


def _writer(path: str, index: int) -> None:
    big = make(output=f"{index}\n" * 20000)
    for _ in range(30):
        write_atomic(Path(path), big.render())


def test_concurrent_writers_never_tear_a_record(tmp_path: Path) -> None:
    path = tmp_path / "a.cpu.txt"
    write_atomic(path, make().render())
    procs = [multiprocessing.Process(target=_writer, args=(str(path), i)) for i in range(4)]
    for proc in procs:
        proc.start()
    reads = 0
    while any(proc.is_alive() for proc in procs):
        record = parse_record(path.read_text(), path)  # raises on a torn file
        assert len(set(record.output.split())) == 1
        reads += 1
    for proc in procs:
        proc.join()
        assert proc.exitcode == 0
    assert reads > 0
    assert sorted(os.listdir(tmp_path)) == ["a.cpu.txt"]  # no temporary file left behind
