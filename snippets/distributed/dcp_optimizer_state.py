#| devices: cpu
"""dcp.load into a fresh optimizer: its own state_dict() asks for nothing, so nothing is loaded."""
import os
import shutil
import tempfile
import warnings

import torch
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint.api import CheckpointException
from torch.distributed.checkpoint.state_dict import (get_optimizer_state_dict,
                                                     set_optimizer_state_dict)

# One process, no process group: DCP warns about that on every call (distributed_checkpoint.py
# shows the warning); it is not the point here.
warnings.filterwarnings("ignore", message="torch.distributed is disabled")


def make():
    torch.manual_seed(0)
    model = nn.Linear(4, 2)
    return model, torch.optim.Adam(model.parameters(), lr=0.1)


def state_line(opt):
    return f"{len(opt.state)} state entries, lr {opt.param_groups[0]['lr']}"


folder = tempfile.mkdtemp()
model, opt = make()
torch.manual_seed(1)
model(torch.randn(3, 4)).sum().backward()
opt.step()
opt.param_groups[0]["lr"] = 0.05  # a scheduler's change, saved with the param groups
saved = opt.state[model.weight]["exp_avg"].clone()
print("trained: Adam", state_line(opt))
dcp.save({"optim": opt.state_dict()}, checkpoint_id=os.path.join(folder, "plain"))
dcp.save({"optim": get_optimizer_state_dict(model, opt)}, checkpoint_id=os.path.join(folder, "named"))
keys = sorted(dcp.FileSystemReader(os.path.join(folder, "plain")).read_metadata().state_dict_metadata)
print("saved keys:", [k for k in keys if k.startswith("optim.state.")])

# Wrong: a fresh Adam's own state_dict() has an empty "state", so load asks for no tensor.
model, opt = make()
target = {"optim": opt.state_dict()}
print("fresh: Adam", state_line(opt), "| state_dict()['state'] =", target["optim"]["state"])
result = dcp.load(target, checkpoint_id=os.path.join(folder, "plain"))
opt.load_state_dict(target["optim"])
print(f"dcp.load returned {result}, raised nothing; after load_state_dict: Adam", state_line(opt))

# Right: get_optimizer_state_dict creates the state first (keyed by parameter name), load
# fills it, set_optimizer_state_dict puts it into the optimizer.
model, opt = make()
target = {"optim": get_optimizer_state_dict(model, opt)}
print("get_optimizer_state_dict on a fresh Adam: state keys", list(target["optim"]["state"]))
dcp.load(target, checkpoint_id=os.path.join(folder, "named"))
set_optimizer_state_dict(model, opt, optim_state_dict=target["optim"])
print("after load and set_optimizer_state_dict: Adam", state_line(opt), "| exp_avg equal:",
      torch.equal(opt.state[model.weight]["exp_avg"], saved))

# A key that the destination asks for and the checkpoint lacks does raise: the name-keyed
# state dict against the checkpoint saved with plain (integer) keys.
model, opt = make()
try:
    dcp.load({"optim": get_optimizer_state_dict(model, opt)},
             checkpoint_id=os.path.join(folder, "plain"))
except CheckpointException as e:  # a BaseException: it carries each rank's traceback
    print(f"{type(e).__name__}, its last line:", str(e).strip().splitlines()[-1])
shutil.rmtree(folder)
