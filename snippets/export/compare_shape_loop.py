import warnings

import torch

warnings.simplefilter("ignore", DeprecationWarning)  # torch.jit.* warns it is deprecated


class RowSum(torch.nn.Module):
    def forward(self, x):
        out = torch.zeros(())
        for i in range(x.shape[0]):  # Python loop over a size
            out = out + x[i]
        return out


four, six = torch.ones(4), torch.ones(6)
print(f"{'eager':18}", RowSum()(six))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", torch.jit.TracerWarning)
    traced = torch.jit.trace(RowSum(), (four,))
print(f"{'jit.trace':18}", traced(six), f"<- loop unrolled 4 times, {len(caught)} TracerWarnings")
print(f"{'jit.script':18}", torch.jit.script(RowSum())(six))

try:
    torch.fx.symbolic_trace(RowSum())
except TypeError as e:
    print(f"{'fx.symbolic_trace':18}", "TypeError:", e)

ep = torch.export.export(RowSum(), (four,))
try:
    ep.module()(six)
except AssertionError as e:
    print(f"{'export':18}", "AssertionError:", e)

try:  # declare the size dynamic: the Python loop still needs a concrete int
    torch.export.export(RowSum(), (four,), dynamic_shapes=({0: torch.export.Dim("n")},))
except torch._dynamo.exc.UserError as e:
    print(f"{'export, Dim(n)':18}", str(e).splitlines()[1].strip())
