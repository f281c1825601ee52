import io

from snippet_engine.execution.progress import Progress


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_line_per_snippet_on_a_terminal(monkeypatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    stream = Tty()
    progress = Progress(2, stream=stream)
    progress.finished("snippets/t/a.py", "cpu", "ok", 1.25)
    progress.finished("snippets/t/b.py", "cpu", "failed", 0.5)
    lines = stream.getvalue().splitlines()
    assert lines == ["[1/2] ok                1.2s  snippets/t/a.py (cpu)",
                     "[2/2] failed            0.5s  snippets/t/b.py (cpu)"]


def test_quiet_in_ci_and_when_piped(monkeypatch) -> None:
    monkeypatch.setenv("CI", "true")
    stream = Tty()
    Progress(1, stream=stream).finished("snippets/t/a.py", "cpu", "ok", 1.0)
    monkeypatch.delenv("CI")
    piped = io.StringIO()
    Progress(1, stream=piped).finished("snippets/t/a.py", "cpu", "ok", 1.0)
    assert stream.getvalue() == piped.getvalue() == ""
