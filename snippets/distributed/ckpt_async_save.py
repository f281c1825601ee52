#| devices: cpu
"""2 gloo ranks: dcp.save, then dcp.async_save while training goes on; load on 4 ranks and in 1 process."""
import os
import tempfile
import warnings

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
from torch.distributed.fsdp import fully_shard


def make(sharded):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 3))
    if sharded:
        fully_shard(model[0])
        fully_shard(model[2])
        fully_shard(model)
    return model, torch.optim.Adam(model.parameters(), lr=0.1)


def train_step(model, opt):
    model(torch.randn(4, 8)).sum().backward()
    opt.step()
    opt.zero_grad()


def full(model):  # whole tensors gathered from the shards (a collective)
    return {k: v.full_tensor() for k, v in model.state_dict().items()}


def train(rank, world, root):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    model, opt = make(sharded=True)
    torch.manual_seed(rank)  # each rank its own batches
    train_step(model, opt)

    # Blocking save at step 1: returns when every rank's file and the .metadata are written.
    model_sd, optim_sd = get_state_dict(model, opt)
    dcp.save({"model": model_sd, "optim": optim_sd, "step": 1}, checkpoint_id=f"{root}/step-1")

    train_step(model, opt)
    at_save = full(model)  # the values at step 2, for the checks
    # Asynchronous save at step 2, on a process group of its own, so the save thread's
    # collectives never share a group with training's all-gathers.
    save_group = dist.new_group(backend="gloo")
    model_sd, optim_sd = get_state_dict(model, opt)
    future = dcp.async_save({"model": model_sd, "optim": optim_sd, "step": 2},
                            checkpoint_id=f"{root}/step-2", process_group=save_group)
    returned = type(future)
    for _ in range(3):  # training goes on while the files are written
        train_step(model, opt)
    future.result()  # wait before the next save, or before exiting
    moved = any(not torch.equal(v, at_save[k]) for k, v in full(model).items())
    if rank == 0:
        print(f"async_save returned {returned.__module__}.{returned.__qualname__}")
        print("3 more training steps ran before future.result(); weights moved since the save:", moved)
        torch.save(at_save, f"{root}/at-save.pt")
    dist.destroy_process_group()


def load_on(rank, world, root):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    model, opt = make(sharded=True)
    model_sd, optim_sd = get_state_dict(model, opt)  # creates Adam's state to load into
    state = {"model": model_sd, "optim": optim_sd, "step": 0}
    dcp.load(state, checkpoint_id=f"{root}/step-2")
    set_state_dict(model, opt, model_state_dict=state["model"], optim_state_dict=state["optim"])
    at_save = torch.load(f"{root}/at-save.pt")
    ok = all(torch.equal(v, at_save[k]) for k, v in full(model).items())
    shard = tuple(model[2].weight.to_local().shape)
    lines = [None] * world
    dist.all_gather_object(lines, f"rank {rank} of {world}: 2.weight shard {shard}, step {state['step']}, "
                                  f"equal to the values at save: {ok}")
    if rank == 0:
        print("\n".join(lines))
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    root = tempfile.mkdtemp()
    mp.start_processes(train, args=(2, root), nprocs=2, start_method="fork")
    for name in ["step-1", "step-2"]:
        print(name, "files:", sorted(os.listdir(f"{root}/{name}")))

    # Reshard on load: the 2-rank checkpoint on 4 ranks, then in one process with a plain model.
    mp.start_processes(load_on, args=(4, root), nprocs=4, start_method="fork")
    model, opt = make(sharded=False)
    model_sd, optim_sd = get_state_dict(model, opt)
    state = {"model": model_sd, "optim": optim_sd, "step": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "assuming the intent is to load in a single process"
        dcp.load(state, checkpoint_id=f"{root}/step-2")
    set_state_dict(model, opt, model_state_dict=state["model"], optim_state_dict=state["optim"])
    at_save = torch.load(f"{root}/at-save.pt")
    print(f"1 process, unsharded: step {state['step']}, equal to the values at save:",
          all(torch.equal(v, at_save[k]) for k, v in model.state_dict().items()))
