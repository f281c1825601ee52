from pathlib import Path

import pytest

from snippet_engine.source.options import DEFAULT_TIMEOUT_S, SnippetOptionError, parse_options

P = Path("snippets/t/x.py")


def test_defaults() -> None:
    opts = parse_options(P, "import torch\n")
    assert (opts.expect, opts.timeout, opts.devices, opts.fresh) == (
        None, DEFAULT_TIMEOUT_S, ("cpu", "cuda"), False)


def test_all_options() -> None:
    opts = parse_options(P, "#| expect: torch._dynamo.exc.UserError\n#| timeout: 12.5\n"
                            "#| devices: cuda\n#| fresh: true\nimport torch\n")
    assert opts.expect == "torch._dynamo.exc.UserError"
    assert (opts.timeout, opts.devices, opts.fresh) == (12.5, ("cuda",), True)


def test_options_end_at_first_code_line() -> None:
    assert parse_options(P, "import torch\n#| timeout: 5\n").timeout == DEFAULT_TIMEOUT_S


@pytest.mark.parametrize(("text", "line", "fragment"), [
    ("#| colour: red\n", 1, "unknown option 'colour'"),
    ("#| timeout: soon\n", 1, "not a positive number"),
    ("\n#| timeout: -3\n", 2, "not a positive number"),
    ("#| devices: tpu\n", 1, "unknown device"),
    ("#| expect: not a class\n", 1, "not an exception class name"),
    ("#| fresh: maybe\n", 1, "not true or false"),
    ("#| timeout: 1\n#| timeout: 2\n", 2, "given twice"),
    ("#| just words\n", 1, "is not 'key: value'"),
])
def test_errors_name_file_line_and_fix(text: str, line: int, fragment: str) -> None:
    with pytest.raises(SnippetOptionError) as info:
        parse_options(P, text)
    message = str(info.value)
    assert message.startswith(f"{P}:{line}: ") and fragment in message
