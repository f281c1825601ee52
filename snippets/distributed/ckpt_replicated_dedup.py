#| devices: cpu
"""2 gloo ranks, DDP (every rank holds the whole model): who writes what with dcp.save."""
import os
import tempfile

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.checkpoint.state_dict import get_model_state_dict
from torch.nn.parallel import DistributedDataParallel as DDP


def run(rank, world, path):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(0)
    model = DDP(nn.Sequential(*[nn.Linear(256, 256, bias=False) for _ in range(4)]))
    state = get_model_state_dict(model)  # keys without DDP's "module." prefix
    dcp.save({"model": state}, checkpoint_id=path)
    if rank == 0:
        one_copy = sum(t.numel() * t.element_size() for t in state.values())
        print("keys:", list(state))
        print(f"one copy of the weights: {one_copy / 2**20:.2f} MiB on each of {world} ranks")
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    path = tempfile.mkdtemp()
    mp.start_processes(run, args=(2, path), nprocs=2, start_method="fork")
    files = sorted(f for f in os.listdir(path) if f.endswith(".distcp"))
    sizes = {f: round(os.path.getsize(os.path.join(path, f)) / 2**20, 2) for f in files}
    print("data files, MiB:", sizes, "| total", round(sum(sizes.values()), 2))
    meta = dcp.FileSystemReader(path).read_metadata()
    where = {k.fqn: v.relative_path for k, v in sorted(meta.storage_data.items(), key=lambda kv: kv[0].fqn)}
    print("each tensor stored once, in:", where)
