import torch
from torch.export import export
from torch.fx.experimental.symbolic_shapes import guard_or_false

torch.manual_seed(0)


class KeepFirst(torch.nn.Module):
    def forward(self, x, k):
        n = k.item()
        # Tell the tracer what is true instead of branching on it.
        torch._check(n >= 0)
        torch._check(n <= x.shape[0], lambda: "k is larger than the input")
        return x[:n] * 2


class KeepFirstOrFalse(torch.nn.Module):
    def forward(self, x, k):
        n = k.item()
        if guard_or_false(n > x.shape[0]):  # undecidable -> False: the check is dropped
            raise ValueError("k is larger than the input")
        return x[:n] * 2


x = torch.randn(8)
ep = export(KeepFirst(), (x, torch.tensor(3)))
print("range_constraints:", ep.range_constraints)
print(ep.graph_module.code.strip())

m = ep.module()
print(tuple(m(x, torch.tensor(5)).shape))  # output length follows u0 at run time
try:
    m(x, torch.tensor(9))
except RuntimeError as e:
    print("RuntimeError:", e)

ep = export(KeepFirstOrFalse(), (x, torch.tensor(3)))
print("guard_or_false:", [str(n.args[1]) for n in ep.graph.nodes if "assert" in str(n.target)])
print(tuple(ep.module()(x, torch.tensor(9)).shape))  # no error: x[:9] of 8 elements
