#| devices: cpu
import torch
from torch.export import Dim


class Combine(torch.nn.Module):
    def forward(self, xs, cfg):
        return xs[0] + xs[1] * cfg["scale"] + cfg["bias"]


xs = [torch.ones(4), torch.ones(4)]
cfg = {"scale": torch.tensor(2.0), "bias": torch.zeros(4)}
n = Dim("n")

# dynamic_shapes mirrors the inputs: a list for the list, a dict for the dict.
spec = {"xs": [{0: n}, {0: n}], "cfg": {"scale": None, "bias": {0: n}}}
ep = torch.export.export(Combine(), (xs, cfg), dynamic_shapes=spec)
print("placeholders:", [tuple(p.meta["val"].shape) for p in ep.graph.nodes if p.op == "placeholder"])

for bad in (
    {"xs": {0: n}, "cfg": None},                                # a dict where the input is a list
    {"xs": [{0: n}], "cfg": None},                              # one entry for two tensors
    {"xs": [{0: n}, {0: n}], "cfg": {"bias": {0: n}}},          # a missing dict key
):
    try:
        torch.export.export(Combine(), (xs, cfg), dynamic_shapes=bad)
    except torch._dynamo.exc.UserError as e:
        print("UserError:", str(e).splitlines()[0])
