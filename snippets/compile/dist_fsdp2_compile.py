#| devices: cpu
#| timeout: 240
import contextlib
import io
import os
import re

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch._dynamo.utils import counters
from torch.distributed.fsdp import fully_shard


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(64, 64)

    def forward(self, x):
        return torch.relu(self.lin(x))


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = torch.nn.ModuleList(Block() for _ in range(4))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def worker(rank, world_size, results):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    for how in ("compile the root", "compile each block"):
        torch._dynamo.reset()
        counters.clear()
        torch.manual_seed(0)
        model = Net()
        for block in model.blocks:
            if how == "compile each block":
                block.compile(backend="eager")  # Dynamo only: the point is what gets captured
            fully_shard(block)  # FSDP2: each block's parameters sharded across the ranks
        fully_shard(model)
        run = torch.compile(model, backend="eager") if how == "compile the root" else model
        log = io.StringIO()
        with contextlib.redirect_stderr(log):
            torch._logging.set_logs(recompiles=True)
            run(torch.randn(8, 64)).sum().backward()
            torch._logging.set_logs()
        if rank == 0:
            skipped = [re.search(r"the function `(\w+)`", reason).group(1) for reason in counters["unimplemented"]]
            recompiles = [line.split("- ", 1)[1] for line in log.getvalue().splitlines() if "mismatch" in line]
            entries = {fn.__qualname__: len(torch._dynamo.eval_frame._debug_get_cache_entry_list(fn.__code__))
                       for fn in (Net.forward, Block.forward)}  # compiled code kept for each function
            results.put((how, entries, counters["stats"]["unique_graphs"], skipped, recompiles,
                         type(model.blocks[0].lin.weight).__name__))
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    results = mp.get_context("fork").Queue()
    # 2 ranks, gloo, CPU. fork, not spawn: the ranks reuse this process's imported torch instead of
    # importing it again (no rank has run anything before the fork).
    mp.start_processes(worker, args=(2, results), nprocs=2, start_method="fork")
    for _ in range(2):
        how, entries, graphs, skipped, recompiles, weight_type = results.get()
        print(f"{how}: Dynamo graphs {graphs}, compiled entries {entries}, parameters are {weight_type}")
        print("   graph breaks at calls to functions marked skipped:", skipped)
        print("   recompiles:", recompiles)
