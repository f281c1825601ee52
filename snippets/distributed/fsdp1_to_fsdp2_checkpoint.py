#| devices: cpu
#| timeout: 60
"""An FSDP1 sharded checkpoint (ShardedTensor) saved with dcp.save, loaded into an FSDP2 model
(DTensor) with dcp.load, on 2 gloo ranks."""
import os
import tempfile
import warnings

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.checkpoint.state_dict import get_model_state_dict, set_model_state_dict
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import fully_shard

# The ShardedTensor warnings are shown by fsdp1_vs_fsdp2.py; hidden here.
warnings.simplefilter("ignore", FutureWarning)
warnings.simplefilter("ignore", UserWarning)


def build(seed):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 3))


def worker(rank, world, path):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    old = FSDP(build(seed=0), device_id=torch.device("cpu"))
    saved = get_model_state_dict(old)
    dcp.save(saved, checkpoint_id=path)

    new = build(seed=1)  # different weights, to see that the load replaces them
    fully_shard(new[0])
    fully_shard(new[2])
    fully_shard(new)
    reference = build(seed=0).state_dict()  # the unsharded seed-0 model

    def equal_to_reference():
        return all(torch.equal(new.state_dict()[k].full_tensor(), reference[k]) for k in reference)

    before = equal_to_reference()
    state = get_model_state_dict(new)
    dcp.load(state, checkpoint_id=path)  # fills the DTensor shards in place
    set_model_state_dict(new, state)
    after = equal_to_reference()
    if rank == 0:
        print("saved from FSDP1:", {k: type(v).__name__ for k, v in saved.items()})
        print("loaded into FSDP2:", {k: type(v).__name__ for k, v in state.items()})
        print(f"FSDP2 model equal to the seed-0 model: before load {before}, after {after}")
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    with tempfile.TemporaryDirectory() as path:
        mp.start_processes(worker, args=(2, path), nprocs=2, start_method="fork")
