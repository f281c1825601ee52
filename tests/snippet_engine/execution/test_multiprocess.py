"""Multi-process snippets: two gloo groups on the same default port at once, DataLoader workers
(fork and spawn) and torch.multiprocessing.spawn, each recorded as a `python snippet.py` alone
records it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import run_cli, write
from snippet_engine.source.analysis import rendezvous_port_default

# The usual two-rank example: the port from the environment, with the usual default. Each rank
# holds the group for a few seconds, so that the two snippets run by `--jobs 2` overlap.
GLOO = '''import os
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29500")


def run(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    total = torch.tensor([rank + 1.0])
    dist.all_reduce(total)
    if rank == 0:
        print("{name}: sum over ranks", total.item(), "on port", os.environ["MASTER_PORT"],
              flush=True)
    time.sleep(6)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    mp.spawn(run, args=(2,), nprocs=2)
'''
LOADER = '''import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.tensor(float(i * i))


if __name__ == "__main__":
    torch.manual_seed(0)  # iterating draws the workers' base seed from torch's generator
    loader = DataLoader(Squares(), batch_size=2, num_workers=2,
                        multiprocessing_context="{context}")
    print("{context} workers:", [batch.tolist() for batch in loader])
'''


@pytest.fixture(scope="module")
def multi(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("multi")
    for name in ("gloo_a", "gloo_b"):
        write(root, f"snippets/t/{name}.py", GLOO.replace("{name}", name))
    for context in ("fork", "spawn"):
        write(root, f"snippets/t/loader_{context}.py", LOADER.replace("{context}", context))
    report = root / "report.json"
    done = run_cli("run", "--report", str(report), "--jobs", "2", root=root, timeout=600)
    return {"done": done, "by": {Path(s["path"]).stem: s
                                 for s in json.loads(report.read_text())["snippets"]}}


@pytest.mark.parametrize("name", ["gloo_a", "gloo_b"])
def test_two_gloo_groups_on_one_default_port_run_at_once(multi: dict, name: str) -> None:
    outcome = multi["by"][name]
    assert outcome["status"] == "ok", outcome["output"][-3000:]
    # the port it was given is written as the default a lone `python` would have used
    assert outcome["output"] == f"{name}: sum over ranks 3.0 on port 29500\n"


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_dataloader_workers(multi: dict, context: str) -> None:
    outcome = multi["by"][f"loader_{context}"]
    assert outcome["status"] == "ok", outcome["output"][-3000:]
    assert outcome["output"] == f"{context} workers: [[0.0, 1.0], [4.0, 9.0], [16.0, 25.0], [36.0, 49.0]]\n"


@pytest.mark.parametrize(("source", "default"), [
    ('import os\nos.environ.setdefault("MASTER_PORT", "29500")\n', "29500"),
    ('import os\nport = os.environ.get("MASTER_PORT", "12355")\n', "12355"),
    ('import os\nos.environ["MASTER_PORT"] = "29500"\n', None),  # its own: nothing to give
    ("print(1)\n", None),
])
def test_rendezvous_port_default(source: str, default: str | None) -> None:
    assert rendezvous_port_default(source) == default
