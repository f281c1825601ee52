#| expect: RuntimeError
import torch
from torch import nn
from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
compiled = torch.compile(model, backend="eager")  # lazy: nothing is compiled until the first call
print(type(compiled).__name__, "keys:", list(compiled.state_dict())[:2], "...")
print("compiled._orig_mod is model:", compiled._orig_mod is model)
print("compiled._orig_mod.state_dict() keys:", list(compiled._orig_mod.state_dict())[:2], "...")

model.compile(backend="eager")  # nn.Module.compile: compiles in place, keeps the module and its keys
print("after model.compile():", type(model).__name__, list(model.state_dict())[:2], "...")

fresh = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
checkpoint = compiled.state_dict()
stripped = dict(checkpoint)
consume_prefix_in_state_dict_if_present(stripped, "_orig_mod.")
print("prefix stripped:", fresh.load_state_dict(stripped))
fresh.load_state_dict(checkpoint)  # the compiled module's keys into a plain module
