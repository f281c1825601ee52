import inspect
import warnings

import torch

torch.manual_seed(0)

default = inspect.signature(torch.export.export).parameters["strict"].default
print("torch.export.export default: strict =", default)

seen = []  # a Python side effect we can watch


class Scale(torch.nn.Module):
    def forward(self, x):
        seen.append(type(x).__name__)  # which kind of tensor does forward() get?
        return x * 2 + 1


x = torch.randn(3)
code = {}
for strict in (False, True):
    seen.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ep = torch.export.export(Scale(), (x,), strict=strict)
    code[strict] = ep.graph_module.code
    print(f"strict={strict}: forward() ran on {seen}")
    for w in caught:
        print("  warning:", str(w.message).split(". Here")[0])

print("same graph either way:", code[False] == code[True])
print(code[False].strip())
