#| devices: cpu
"""Save an FSDP2 model and its Adam state from 2 ranks with DCP, load it in 1 process and on 4 ranks."""
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


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 3))


def train_and_save(rank, world, path):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    model = make_model()
    fully_shard(model[0])
    fully_shard(model[2])
    fully_shard(model)
    opt = torch.optim.Adam(model.parameters(), lr=0.1)
    torch.manual_seed(rank)  # each rank its own batch
    model(torch.randn(4, 8)).sum().backward()
    opt.step()
    model_sd, optim_sd = get_state_dict(model, opt)
    shapes = {k: tuple(v.to_local().shape) for k, v in model_sd.items()}
    lines = [f"rank {rank} model shards: {shapes}"]
    if rank == 0:
        lines.append(f"optimizer state keys: {list(optim_sd['state'])}")
    dcp.save({"model": model_sd, "optim": optim_sd}, checkpoint_id=path)
    # The reference: whole tensors, gathered from both shards (a collective: every rank calls it).
    reference = {k: v.full_tensor() for k, v in model_sd.items()}
    reference["exp_avg 0.weight"] = optim_sd["state"]["0.weight"]["exp_avg"].full_tensor()
    gathered = [None] * world
    dist.all_gather_object(gathered, lines)
    if rank == 0:
        print("\n".join(line for rank_lines in gathered for line in rank_lines))
        torch.save(reference, path + "-reference.pt")
    dist.destroy_process_group()


def load_sharded(rank, world, path):
    """Load the 2-rank checkpoint into the same FSDP2 model on `world` ranks."""
    dist.init_process_group("gloo", rank=rank, world_size=world)
    model = make_model()
    fully_shard(model[0])
    fully_shard(model[2])
    fully_shard(model)
    opt = torch.optim.Adam(model.parameters(), lr=0.1)
    model_sd, optim_sd = get_state_dict(model, opt)
    state = {"model": model_sd, "optim": optim_sd}
    dcp.load(state, checkpoint_id=path)
    set_state_dict(model, opt, model_state_dict=state["model"], optim_state_dict=state["optim"])
    reference = torch.load(path + "-reference.pt")
    full = {k: v.full_tensor() for k, v in model.state_dict().items()}  # collective
    ok = all(torch.equal(full[k], reference[k]) for k in full)
    line = (f"rank {rank} of {world}: 2.weight shard {tuple(model[2].weight.to_local().shape)}, "
            f"gathered equal to the 2-rank values: {ok}")
    gathered = [None] * world
    dist.all_gather_object(gathered, line)
    if rank == 0:
        print("\n".join(gathered))
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29500")
    path = os.path.join(tempfile.mkdtemp(), "checkpoint")
    # start_method="fork": each rank starts as a copy of this process, with torch already
    # imported (Linux). mp.spawn(...) works too, but every rank imports torch again.
    mp.start_processes(train_and_save, args=(2, path), nprocs=2, start_method="fork")

    print("files:", sorted(os.listdir(path)))
    meta = dcp.FileSystemReader(path).read_metadata()
    w = meta.state_dict_metadata["model.0.weight"]
    print("metadata for model.0.weight: size", tuple(w.size),
          "chunks", [(tuple(c.offsets), tuple(c.sizes)) for c in w.chunks])

    # One process, no process group, a plain (unsharded) model and optimizer.
    reference = torch.load(path + "-reference.pt")
    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=0.1)
    print("fresh model equal to the 2-rank values:",
          all(torch.equal(v, reference[k]) for k, v in model.state_dict().items()))
    no_state = len(opt.state)
    model_sd, optim_sd = get_state_dict(model, opt)  # also creates Adam's (zero) state to load into
    print(f"Adam state entries: {no_state} before get_state_dict, {len(opt.state)} after")
    state = {"model": model_sd, "optim": optim_sd}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dcp.load(state, checkpoint_id=path)  # fills the tensors of `state` in place
    for w in caught:
        print("warning:", w.message)
    set_state_dict(model, opt, model_state_dict=state["model"], optim_state_dict=state["optim"])

    loaded = dict(model.state_dict())
    loaded["exp_avg 0.weight"] = opt.state[model[0].weight]["exp_avg"]
    print("loaded on 1 process:", {k: tuple(v.shape) for k, v in loaded.items()})
    print("loaded model and exp_avg equal to the 2-rank values:",
          all(torch.equal(loaded[k], reference[k]) for k in reference))

    # Four ranks, FSDP2 again: each rank's shard is a different piece than was saved.
    mp.start_processes(load_sharded, args=(4, path), nprocs=4, start_method="fork")
