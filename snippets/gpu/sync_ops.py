import torch
from torch.utils._python_dispatch import TorchDispatchMode

torch.manual_seed(0)


class OpLog(TorchDispatchMode):
    """Collect the ATen ops that run, in order."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func.overloadpacket.__name__))
        return func(*args, **(kwargs or {}))


x = torch.randn(8)
cases = {
    "x.item() on a 1-element sum": lambda: x.sum().item(),
    "float(x.max())": lambda: float(x.max()),
    "if x.sum() > 0: (bool)": lambda: bool(x.sum() > 0),
    "x[x > 0] (boolean mask)": lambda: x[x > 0],
    "x.nonzero()": lambda: x.nonzero(),
    "torch.where(x > 0, x, 0)": lambda: torch.where(x > 0, x, 0),
    "x.masked_fill(x < 0, 0)": lambda: x.masked_fill(x < 0, 0),
    "x.nonzero_static(size=8)": lambda: torch.nonzero_static(x, size=8),
}
for label, fn in cases.items():
    with OpLog() as log:
        log.ops = []
        fn()
    ops = list(dict.fromkeys(log.ops))  # unique, in order
    print(f"{label:<30} {', '.join(ops)}")

# On the meta device there are no values: an op whose output shape depends on them cannot run.
m = torch.randn(8, device="meta")
for label, fn in {"meta: m[m > 0]": lambda: m[m > 0],
                  "meta: m.sum().item()": lambda: m.sum().item(),
                  "meta: torch.where(m > 0, m, 0)": lambda: torch.where(m > 0, m, 0).shape,
                  "meta: nonzero_static(m, size=8)": lambda: torch.nonzero_static(m, size=8).shape}.items():
    try:
        print(f"{label:<34} -> {fn()}")
    except (NotImplementedError, RuntimeError) as e:
        print(f"{label:<34} -> {type(e).__name__}: {str(e).splitlines()[0][:72]}")
