import dataclasses
import multiprocessing
import os
import re
from pathlib import Path

import pytest

from snippet_engine.records.record_file import (
    FIELDS,
    RECORD_FIELDS,
    Record,
    RecordError,
    mark_stale,
    parse_record,
    read_record,
    store,
    write_atomic,
)
from snippet_engine.source.discovery import Snippet


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


def record_path(root: Path) -> Path:
    return Snippet(root / "a.py", "a.py").record_path("cpu")


# A value for every field, none of them its default, each of a shape the format must carry: an
# error type, a stale reason, two helpers (sorted on write), fractional seconds.
EVERY_FIELD = make(
    output="out\n", snippet="snippets/t/b.py", device="cuda", status="expected-error",
    error_type="torch._dynamo.exc.UserError", stale="the last run (2027-01-02T00:00:00Z) failed: boom",
    key="k9", source_sha256="s9", engine="7", torch="2.14.1+cu130", python="3.12.3",
    hardware="NVIDIA H200, CUDA 13.0", duration_s=12.25, peak_rss_mib=4097.0,
    recorded="2027-01-02T03:04:05Z", helpers={"snippets/t/_z.py": "d2", "snippets/_a.py": "d1"},
    packages={"onnx": "1.23.2", "numpy": "2.4.6"})


def test_every_field_round_trips_through_a_file(tmp_path: Path) -> None:
    path = record_path(tmp_path)
    assert store(path, EVERY_FIELD)
    assert read_record(path) == EVERY_FIELD
    # The one definition covers the whole record: every attribute but the output has a header
    # line, in FIELDS' order, and a change to any of them reaches the file and comes back.
    attributes = {f.name for f in dataclasses.fields(Record)} - {"output"}
    assert {spec.attr for spec in RECORD_FIELDS} == attributes
    header = path.read_text().splitlines()[1:1 + len(FIELDS)]
    assert [line.partition(": ")[0] for line in header] == list(FIELDS)
    for spec in RECORD_FIELDS:
        changed = dataclasses.replace(EVERY_FIELD, **{spec.attr: getattr(make(), spec.attr)})
        assert changed.render() != EVERY_FIELD.render(), spec.header
        assert parse_record(changed.render()) == changed, spec.header


def _with_line(path: Path, number: int, line: str) -> None:
    """Write EVERY_FIELD with `line` inserted so that it is line `number` of the file."""
    lines = EVERY_FIELD.render().split("\n")
    lines.insert(number - 1, line)
    path.write_text("\n".join(lines))


def test_an_unknown_header_field_is_reported_with_its_line(tmp_path: Path) -> None:
    path = record_path(tmp_path)
    _with_line(path, 5, "colour: blue")
    with pytest.raises(RecordError, match=re.escape(f"{path}:5: unknown header field 'colour'")):
        read_record(path)


def test_bad_header_values_are_reported_with_their_line(tmp_path: Path) -> None:
    path = record_path(tmp_path)
    _with_line(path, 3, "torch: 2.0.0")
    repeated = FIELDS.index("torch") + 3  # after the banner and the inserted line
    with pytest.raises(RecordError, match=re.escape(f"{path}:{repeated}: header field 'torch' is "
                                                    "given twice (first on line 3)")):
        read_record(path)
    path.write_text(EVERY_FIELD.render().replace("duration-s: 12.25", "duration-s: fast"))
    line = FIELDS.index("duration-s") + 2
    with pytest.raises(RecordError, match=re.escape(f"{path}:{line}: malformed duration-s value "
                                                    "'fast'")):
        read_record(path)
    path.write_text(EVERY_FIELD.render().replace("status: expected-error", "status: failed"))
    with pytest.raises(RecordError, match=re.escape(f"{path}:4: malformed status value 'failed' "
                                                    "(only ok and expected-error are recorded)")):
        read_record(path)


def test_damaged_records_are_reported_with_the_fix(tmp_path: Path) -> None:
    path = record_path(tmp_path)
    path.write_text(make().render().split("---")[0])
    with pytest.raises(RecordError, match="truncated"):
        read_record(path)
    path.write_text("hello\n")
    with pytest.raises(RecordError, match=re.escape(f"{path}:1: not a snippet record")):
        read_record(path)
    path.write_bytes(make().render().encode() + b"\xff\xfe\n")
    with pytest.raises(RecordError, match=re.escape(f"{path}: not UTF-8 text")):
        read_record(path)


def test_store_leaves_an_unchanged_record_untouched(tmp_path: Path) -> None:
    path = record_path(tmp_path)
    assert store(path, make())
    before = path.stat().st_mtime_ns
    # Same result on another day, another machine, another speed: nothing to commit.
    assert not store(path, make(duration_s=9.0, recorded="2027-01-01T00:00:00Z", hardware="Other"))
    assert path.stat().st_mtime_ns == before
    assert store(path, make(output="tensor([2.])\n"))
    assert read_record(path).output == "tensor([2.])\n"


def test_mark_stale_keeps_the_good_output(tmp_path: Path) -> None:
    path = record_path(tmp_path)
    store(path, make())
    assert mark_stale(path, "the last run failed: boom")
    record = read_record(path)
    assert record.is_stale and record.output == "tensor([1.])\n" and "boom" in record.stale
    assert not mark_stale(record_path(tmp_path / "none"), "x")  # nothing recorded, nothing invented


def conflicted(record: Record) -> str:
    """A record as git leaves it after a merge conflict."""
    ours, theirs = record.render(), record.render().replace("tensor([1.])", "tensor([9.])")
    return f"<<<<<<< HEAD\n{ours}=======\n{theirs}>>>>>>> other-branch\n"


@pytest.mark.parametrize("damage", ["conflict", "garbage", "bytes"])
def test_a_damaged_record_is_rewritten_by_store_and_left_by_mark_stale(tmp_path: Path,
                                                                        damage: str) -> None:
    path = record_path(tmp_path)
    if damage == "conflict":
        path.write_text(conflicted(make()))
    elif damage == "garbage":
        path.write_text("\x00 nonsense\n")
    else:
        path.write_bytes(b"\xff\xfe" + make().render().encode())
    before = path.read_bytes()
    assert not mark_stale(path, "the last run failed")  # no good output to keep
    assert path.read_bytes() == before
    assert store(path, make())
    assert read_record(path) == make()


def _writer(path: str, index: int) -> None:
    big = make(output=f"{index}\n" * 20000)
    for _ in range(30):
        write_atomic(Path(path), big.render())


def test_concurrent_writers_never_tear_a_record(tmp_path: Path) -> None:
    path = record_path(tmp_path)
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
    assert sorted(os.listdir(tmp_path)) == [path.name]  # no temporary file left behind


@pytest.mark.parametrize("edit", [("tensor([1.])", "tensor([1.5])"),
                                  ("status: ok", "status: expected-error"), ("key: k1", "key: k2"),
                                  ("snippet: snippets/t/a.py", "snippet: snippets/t/b.py")])
def test_a_result_edited_by_hand_is_reported(tmp_path: Path, edit: tuple[str, str]) -> None:
    """What the run said (its output, outcome, key, snippet) is bound by the record's digest:
    a hand edit of any of it makes the record damaged, which `check` reports and `run` rewrites."""
    path = record_path(tmp_path)
    assert store(path, make())
    text = path.read_text()
    assert edit[0] in text
    path.write_text(text.replace(edit[0], edit[1]))
    with pytest.raises(RecordError, match=re.escape(f"{path}: what it says the run printed was "
                                                    "edited after the run wrote it")):
        read_record(path)


def test_a_record_without_its_digest_is_damaged(tmp_path: Path) -> None:
    path = record_path(tmp_path)
    assert store(path, make())
    lines = [line for line in path.read_text().split("\n") if not line.startswith("result-sha256: ")]
    path.write_text("\n".join(lines))
    with pytest.raises(RecordError, match="header lacks result-sha256"):
        read_record(path)
