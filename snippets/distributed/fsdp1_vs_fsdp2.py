#| devices: cpu
#| timeout: 60
"""FSDP1 (FullyShardedDataParallel) against FSDP2 (fully_shard) on 2 gloo ranks:
what named_parameters() and state_dict() hold, and which warnings FSDP1 prints."""
import os
import warnings
from collections import Counter

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.checkpoint.state_dict import get_model_state_dict
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import FlatParameter, ShardingStrategy, StateDictType, fully_shard

WARNED = Counter()  # (category, message) -> how often, in the order first seen


def build():
    torch.manual_seed(0)  # the same full model on every rank before sharding
    return nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 3))  # 75 values


def catching(fn):
    """Run fn and catch every warning it issues. Returns its result and a note such as
    "W1 x2, W4 x12": which distinct warnings (numbered as first seen) and how often."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    here = Counter()
    for w in caught:
        key = (w.category.__name__, str(w.message))
        WARNED[key] += 1
        here[f"W{list(WARNED).index(key) + 1}"] += 1
    return result, ", ".join(f"{k} x{n}" for k, n in sorted(here.items())) or "none"


def local_shape(t):
    if hasattr(t, "to_local"):                      # DTensor
        return tuple(t.to_local().shape)
    if hasattr(t, "local_shards"):                  # ShardedTensor
        return tuple(t.local_shards()[0].tensor.shape)
    return tuple(t.shape)


def describe(name, t):
    return f"  {name:34} {type(t).__name__:13} {str(tuple(t.shape)):8} local {local_shape(t)}"


def adam_state(model):
    """One Adam step; what the optimizer's own state_dict() holds."""
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(4, 8)).sum().backward()
    opt.step()
    state = opt.state_dict()["state"]
    no_grad = sum(p.grad is None for p in model.parameters())
    return (describe(f"Adam state: {len(state)} entries, exp_avg", state[0]["exp_avg"])
            + f"; parameters with grad None: {no_grad}")


def fsdp1(use_orig_params, lines):
    model, n = catching(lambda: FSDP(build(), device_id=torch.device("cpu"),
                                     use_orig_params=use_orig_params))
    lines.append(f"FSDP1 use_orig_params={use_orig_params} (warnings from FSDP(...): {n})")
    lines += [describe(k, p) for k, p in model.named_parameters()]
    flat = model._flat_param  # the FlatParameter behind them, shard of this rank
    lines.append(f"  underneath: FlatParameter {isinstance(flat, FlatParameter)}, "
                 f"{flat.numel()} values here, {flat._unpadded_unsharded_size.numel()} unsharded")
    pieces = [f"{n} pad" if pad else str(n)  # what the unsharded flat vector is made of
              for n, pad in zip(flat._numels_with_padding, flat._is_padding_mask)]
    lines.append(f"  flat vector pieces: {', '.join(pieces)}")
    full = model.state_dict()  # the default type is FULL_STATE_DICT
    lines.append(describe("state_dict() " + next(iter(full)), next(iter(full.values()))))

    def sharded():
        with FSDP.state_dict_type(model, StateDictType.SHARDED_STATE_DICT):
            return model.state_dict()
    sd, n = catching(sharded)
    lines.append(f"  (warnings from the SHARDED_STATE_DICT block: {n})")
    lines.append(catching(lambda: describe("SHARDED_STATE_DICT 2.weight", sd["2.weight"]))[0])
    sd, n = catching(lambda: get_model_state_dict(model))
    lines.append(f"  (warnings from get_model_state_dict: {n})")
    lines.append(catching(lambda: describe("get_model_state_dict 2.weight", sd["2.weight"]))[0])
    lines.append(adam_state(model))


def fsdp2(lines):
    model = build()
    fully_shard(model[0])
    fully_shard(model[2])
    fully_shard(model)
    lines.append("FSDP2 fully_shard")
    lines += [describe(k, p) for k, p in model.named_parameters()]
    sd = model.state_dict()
    lines.append(describe("state_dict() 2.weight", sd["2.weight"]))
    sd = get_model_state_dict(model)
    lines.append(describe("get_model_state_dict 2.weight", sd["2.weight"]))
    lines.append(adam_state(model))


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    lines = []
    fsdp1(False, lines)
    fsdp1(True, lines)
    fsdp2(lines)
    _, n = catching(lambda: FSDP(build(), device_id=torch.device("cpu"),
                                 sharding_strategy=ShardingStrategy.NO_SHARD))
    lines.append(f"FSDP1 sharding_strategy=NO_SHARD (warnings from FSDP(...): {n})")
    gathered = [None] * world
    dist.all_gather_object(gathered, lines)
    if rank == 0:
        for r, rank_lines in enumerate(gathered):
            print(f"--- rank {r}")
            print("\n".join(rank_lines))
        print("--- distinct warnings on rank 0")
        for i, (category, message) in enumerate(WARNED, 1):
            print(f"W{i} {category}: {message}")
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    mp.start_processes(worker, args=(2,), nprocs=2, start_method="fork")
