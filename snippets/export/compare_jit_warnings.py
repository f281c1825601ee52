#| devices: cpu
import warnings

import torch


class Double(torch.nn.Module):
    def forward(self, x):
        return x * 2


def use_torchscript():
    scripted = torch.jit.script(Double())
    torch.jit.save(scripted, "double.pt")
    torch.jit.load("double.pt")
    torch.jit.trace(Double(), (torch.ones(2),))


# Python's default filters, as a plain `python model.py` has them.
with warnings.catch_warnings(record=True) as caught:
    use_torchscript()
print("default filters:", len(caught), "warnings shown")

# What `python -W default` (or pytest) shows for the same calls.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("default")
    use_torchscript()
for w in caught:
    where = w.filename.split("site-packages/")[-1]
    print(f"{w.category.__name__} from {where}:\n    {w.message}")
