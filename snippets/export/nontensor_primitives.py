import torch
from torch.export import Dim


class Mix(torch.nn.Module):
    def forward(self, x, n: int, alpha: float, flag: bool, mode: str):
        y = x * n * alpha
        if flag:
            y = y + 1
        if mode == "relu":
            y = y.relu()
        return y


x = torch.ones(2)
ep = torch.export.export(Mix(), (x, 3, 0.5, True, "relu"))
print(ep.graph_module.code.strip())
for spec in ep.graph_signature.input_specs:
    print(" ", spec.arg)

m = ep.module()
print("same values:", m(x, 3, 0.5, True, "relu"))
for changed in [
    (4, 0.5, True, "relu"),
    (3, 0.25, True, "relu"),
    (3, 0.5, False, "relu"),
    (3, 0.5, True, "gelu"),
]:
    try:
        m(x, *changed)
    except AssertionError as e:
        print("changed values:", e)

# Which scalars can be made dynamic?
args = (x, 3, 0.5, True, "relu")
for name in ("n", "alpha", "flag"):
    shapes = {"x": None, "n": None, "alpha": None, "flag": None, "mode": None}
    shapes[name] = Dim.DYNAMIC
    try:
        ep = torch.export.export(Mix(), args, dynamic_shapes=shapes)
        spec = next(s for s in ep.graph_signature.input_specs if s.arg.name == name)
        print(f"dynamic {name}:", spec.arg, "| n=7 ->", ep.module()(x, 7, 0.5, True, "relu"))
    except Exception as e:
        msg = str(e).splitlines()[0].split(" at `inputs")[0]
        print(f"dynamic {name}:", type(e).__name__, msg)
