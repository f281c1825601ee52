#| devices: cpu
import re
import warnings

import torch


class Double(torch.nn.Module):
    def forward(self, x):
        return x * 2


scripted = torch.jit.script(Double())  # made before any warning is recorded
torch.jit.save(scripted, "double.pt")


def step(name):
    if name == "torch.jit.script":
        return torch.jit.script(Double())
    if name == "torch.jit.trace":
        return torch.jit.trace(Double(), (torch.ones(2),))
    if name == "torch.jit.save":
        return torch.jit.save(scripted, "double.pt")
    if name == "torch.jit.load":
        return torch.jit.load("double.pt")
    if name == "_save_for_lite_interpreter":
        return scripted._save_for_lite_interpreter("double.ptl")


STEPS = ["torch.jit.script", "torch.jit.trace", "torch.jit.save", "torch.jit.load",
         "_save_for_lite_interpreter"]

print("What a plain `python` run shows (Python's default filters):")
for name in STEPS:
    with warnings.catch_warnings(record=True) as caught:  # keeps the default filters
        step(name)
    print(f"  {name:27} {len(caught)} shown")

print("With warnings.simplefilter('default') (as `python -W default`; pytest uses 'always'):")
for name in STEPS:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        step(name)
    for w in caught:
        where = w.filename.rsplit("site-packages/", 1)[-1].rsplit("/", 1)[-1]
        print(f"  {name:27} from {where}: {' '.join(str(w.message).split())}")

# A migration check for CI: make every TorchScript deprecation an error.
warnings.filterwarnings("error", message=r"`torch\.jit\.|Lite Interpreter", category=DeprecationWarning)
try:
    torch.jit.trace(Double(), (torch.ones(2),))
except DeprecationWarning as e:
    print("as an error:", type(e).__name__, "-", e)
