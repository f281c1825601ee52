#| devices: cpu
#| timeout: 60
"""Mixed precision in FSDP1 (MixedPrecision) and FSDP2 (MixedPrecisionPolicy) on 2 gloo ranks:
the dtypes a layer sees in forward, and the dtypes kept at rest."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import MixedPrecision, MixedPrecisionPolicy, fully_shard


class Scaled(nn.Linear):
    """A Linear with a float32 buffer; notes the dtypes it sees while its forward runs."""

    def __init__(self, n_in, n_out):
        super().__init__(n_in, n_out)
        self.register_buffer("scale", torch.ones(n_out))

    def forward(self, x):
        out = super().forward(x) * self.scale
        self.seen = (f"input {x.dtype}, weight {self.weight.dtype}, "
                     f"buffer {self.scale.dtype}, output {out.dtype}")
        return out


def build():
    torch.manual_seed(0)  # the same full model on every rank before sharding
    return nn.Sequential(Scaled(8, 6), nn.ReLU(), Scaled(6, 3))


def report(name, model, layers):
    p = next(model.parameters())
    return [f"{name}",
            f"  layer 0 forward: {layers[0].seen}",
            f"  layer 2 forward: {layers[1].seen}",
            f"  parameter kept:  {type(p).__name__} {p.dtype}, its grad {p.grad.dtype}"]


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(0)
    x = torch.randn(4, 8)  # float32 input

    # FSDP1: one MixedPrecision config per wrapper; buffer_dtype casts buffers too.
    mp1 = MixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.float32,
                         buffer_dtype=torch.bfloat16)
    model1 = build()
    for i in (0, 2):
        model1[i] = FSDP(model1[i], device_id=torch.device("cpu"), mixed_precision=mp1)
    model1 = FSDP(model1, device_id=torch.device("cpu"), mixed_precision=mp1)
    out1 = model1(x)
    out1.float().sum().backward()
    lines = report("FSDP1 MixedPrecision(bf16, reduce fp32, buffer bf16)", model1,
                   [model1.module[i].module for i in (0, 2)])

    # FSDP2: MixedPrecisionPolicy has no buffer dtype; buffers are not FSDP2's.
    mp2 = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    model2 = build()
    for i in (0, 2):
        fully_shard(model2[i], mp_policy=mp2)
    fully_shard(model2, mp_policy=mp2)
    out2 = model2(x)
    out2.float().sum().backward()
    lines += report("FSDP2 MixedPrecisionPolicy(bf16, reduce fp32)", model2,
                    [model2[0], model2[2]])
    if rank == 0:
        print("\n".join(lines))
        print("MixedPrecision fields:      ", list(MixedPrecision.__dataclass_fields__))
        print("MixedPrecisionPolicy fields:", list(MixedPrecisionPolicy.__dataclass_fields__))
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
