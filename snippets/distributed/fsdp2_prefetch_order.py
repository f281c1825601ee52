#| devices: cpu
#| timeout: 60
"""FSDP2 prefetching on 2 gloo ranks: the order of all-gathers, forwards and post-backwards,
by default and with set_modules_to_forward_prefetch."""
import os

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.fsdp import fully_shard
# FSDP2's private per-group class: wrapped here only to log when each layer is gathered.
from torch.distributed.fsdp._fully_shard._fsdp_param_group import FSDPParamGroup

EVENTS = []
_unshard, _post_backward = FSDPParamGroup.unshard, FSDPParamGroup.post_backward


def unshard(self, async_op=False):
    if not self.is_unsharded and self._all_gather_result is None:  # a real all-gather
        EVENTS.append(f"gather {self._module_fqn}")
    return _unshard(self, async_op)


def post_backward(self, *args):
    EVENTS.append(f"post-backward {self._module_fqn}")  # gradient done: reduce-scatter
    return _post_backward(self, *args)


FSDPParamGroup.unshard, FSDPParamGroup.post_backward = unshard, post_backward


class Layer(nn.Linear):
    def forward(self, x):
        EVENTS.append(f"forward {self.index}")
        return super().forward(x)


def build():
    torch.manual_seed(0)
    model = nn.Sequential(*[Layer(4, 4) for _ in range(3)])
    for i, layer in enumerate(model):
        layer.index = i
        fully_shard(layer)
    fully_shard(model)
    return model


def run(model):
    EVENTS.clear()
    out = model(torch.randn(2, 4))
    forward = ", ".join(EVENTS)
    EVENTS.clear()
    out.sum().backward()
    return forward, ", ".join(EVENTS)


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    default = run(build())
    model = build()
    model[0].set_modules_to_forward_prefetch([model[1], model[2]])
    explicit = run(model)
    if rank == 0:
        print("default forward:  ", default[0])
        print("default backward: ", default[1])
        print("layer 0 prefetches layers 1 and 2 in forward:")
        print("  forward:  ", explicit[0])
        print("  backward: ", explicit[1])
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
