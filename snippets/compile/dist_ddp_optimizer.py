#| devices: cpu
#| timeout: 240
import logging
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch._dynamo.utils import counters
from torch.nn.parallel import DistributedDataParallel as DDP


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.ModuleList(torch.nn.Linear(512, 512) for _ in range(4))  # just over 1 MiB each

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


def worker(rank, world_size, results):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    # DDP's forward opens a profiler record_function that Dynamo ignores; each rank warns once, in any order.
    torch._logging.set_logs(dynamo=logging.ERROR)
    for optimize_ddp in (True, False):
        torch._dynamo.reset()
        counters.clear()
        torch._dynamo.config.optimize_ddp = optimize_ddp
        graphs = []  # op count of each graph the backend is handed

        def backend(gm, example_inputs):
            graphs.append(sum(1 for n in gm.graph.nodes if n.op in ("call_module", "call_function")))
            return gm.forward

        torch.manual_seed(0)
        model = DDP(Net(), bucket_cap_mb=1)  # 1 MiB buckets: about one layer each
        torch.compile(model, backend=backend)(torch.randn(8, 512)).sum().backward()
        grads = [p.grad.clone() for p in model.parameters()]

        torch.manual_seed(0)
        eager = DDP(Net(), bucket_cap_mb=1)
        eager(torch.randn(8, 512)).sum().backward()
        same = all(torch.allclose(g, p.grad) for g, p in zip(grads, eager.parameters()))
        if rank == 0:
            results.put((optimize_ddp, counters["stats"]["unique_graphs"], graphs, same))
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    results = mp.get_context("fork").Queue()
    # 2 ranks, gloo, CPU. fork, not spawn: the ranks reuse this process's imported torch instead of
    # importing it again (no rank has run anything before the fork).
    mp.start_processes(worker, args=(2, results), nprocs=2, start_method="fork")
    for _ in range(2):
        optimize_ddp, dynamo_graphs, graphs, same = results.get()
        print(f"optimize_ddp={optimize_ddp}: Dynamo graphs {dynamo_graphs}, graphs handed to the backend "
              f"{len(graphs)} with ops {graphs}, gradients match eager DDP: {same}")
