"""The drill bank read from files (question_pages/drills/bank.py): the real drills load, and a
malformed drill is refused with the file, the line, what is wrong and how to fix it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from helpers import ROOT, write
from question_pages.drills.bank import DrillError, load_bank, load_drill, verdict_source

FIXED_INTERFACE = {
    "attention-from-scratch": "def attention(",
    "rope": "def apply_rope(",
    "top-p-sampling": "def top_p_filter(",
    "rms-norm": "def rms_norm(",
    "adamw-from-scratch": "class AdamW(torch.optim.Optimizer)",
    "cross-entropy-from-scratch": "def cross_entropy(",
    "batch-norm": "class BatchNorm(torch.nn.Module)",
    "kv-cache": "def forward_step(",
    "grouped-query-attention": "def gqa_attention(",
    "online-softmax-attention": "def blockwise_attention(",
    "temperature-top-k-sampling": "def sample(",
    "speculative-decoding": "def speculative_step(",
    "lora-linear": "class LoRALinear(torch.nn.Module)",
    "layer-norm": "def layer_norm(",
    "custom-autograd-function": "class MulSigmoid(torch.autograd.Function)",
    "matmul-chain-backward": "def chain_backward(",
    "paged-kv-cache": "def gather_kv(",
    "gradient-accumulation": "def accumulate_step(",
    "debug-small-gpt": "class GPT(nn.Module)",
    "ring-all-reduce": "def ring_all_reduce(",
    "moe-router": "def route(",
    "dpo-loss": "def dpo_loss(",
}


def test_the_real_bank_loads_and_each_mistake_names_one_of_its_judge_tests() -> None:
    drills = load_bank(ROOT)
    assert {d.id for d in drills} >= set(FIXED_INTERFACE)
    for drill in drills:
        assert len(drill.tests) >= 5, drill.id
        assert drill.mistakes and all(m.fails in drill.tests and m.says for m in drill.mistakes)
        for role, path in drill.solutions():
            assert path.is_file()
            assert drill.verdict_snippet(role).read_text(encoding="utf-8") == verdict_source(role)


def test_the_fixed_interfaces_are_what_the_starters_define() -> None:
    """Solutions written elsewhere can be judged only if the names stay as published."""
    for drill in load_bank(ROOT):
        if drill.id in FIXED_INTERFACE:
            assert FIXED_INTERFACE[drill.id] in drill.starter.read_text(encoding="utf-8")


@pytest.fixture
def drill_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "snippets" / "drills" / "attention-from-scratch"
    shutil.copytree(ROOT / "snippets" / "drills" / "attention-from-scratch", folder,
                    ignore=shutil.ignore_patterns("*.txt", "__pycache__"))
    return folder


@pytest.mark.parametrize(("header", "line", "says"), [
    ("# fails: causal\n", 1, "a mistake starts with '# mistake: <what is wrong>'"),
    ("# mistake: the diagonal\n# is hidden too\nimport torch\n", 3, "no '# fails: <test>' line"),
    ("# mistake: the diagonal\n# fails: casual\n", 2, "the judge has no test 'casual'"),
])
def test_a_malformed_mistake_says_where_and_what(drill_copy: Path, header: str, line: int,
                                                 says: str) -> None:
    path = drill_copy / "_mistake_causal_diagonal.py"
    body = path.read_text(encoding="utf-8").split("\n", 3)[3]
    path.write_text(header + body, encoding="utf-8")
    with pytest.raises(DrillError) as caught:
        load_drill(drill_copy, drill_copy.parents[2])
    error = caught.value.error
    assert (error.rel, error.line) == ("snippets/drills/attention-from-scratch/"
                                       "_mistake_causal_diagonal.py", line)
    assert says in error.what and error.fix


def test_a_mistake_header_may_run_over_several_lines(drill_copy: Path) -> None:
    drill = load_drill(drill_copy, drill_copy.parents[2])
    bottom = next(m for m in drill.mistakes if m.name == "bottom_right")
    assert bottom.fails == "causal_rectangular" and bottom.fails_line == 3
    assert "aligned at the bottom right" in bottom.says and "only when Lq == Lk" in bottom.says


@pytest.mark.parametrize("missing", ["_reference.py", "_judge.py", "_starter.py"])
def test_a_drill_without_one_of_its_files_is_refused(drill_copy: Path, missing: str) -> None:
    (drill_copy / missing).unlink()
    with pytest.raises(DrillError, match=re.escape(f"{missing}:1: missing")):
        load_drill(drill_copy, drill_copy.parents[2])


def test_a_drill_without_mistakes_or_tests_is_refused(drill_copy: Path) -> None:
    for path in drill_copy.glob("_mistake_*.py"):
        path.unlink()
    with pytest.raises(DrillError, match="lists no mistake"):
        load_drill(drill_copy, drill_copy.parents[2])
    write(drill_copy, "_judge.py", "from _drill import Tests\nTESTS = Tests('x')\n")
    with pytest.raises(DrillError, match=r"_judge\.py:1: the judge declares no test"):
        load_drill(drill_copy, drill_copy.parents[2])
