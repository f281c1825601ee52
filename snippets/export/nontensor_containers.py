import torch


class Combine(torch.nn.Module):
    def forward(self, xs, cfg):
        return xs[0] + xs[1] * cfg["scale"] + cfg["bias"]


xs = [torch.ones(2), torch.ones(2)]
cfg = {"scale": torch.tensor(2.0), "bias": torch.zeros(2)}
ep = torch.export.export(Combine(), (xs, cfg))

print("graph inputs:", [n.name for n in ep.graph.nodes if n.op == "placeholder"])
print("recorded structure:", ep.call_spec.in_spec)
m = ep.module()
print("new values, same structure:", m([torch.ones(2), torch.ones(2)], {"scale": torch.tensor(3.0), "bias": torch.ones(2)}))
print("dict keys in another order:", m(xs, {"bias": torch.zeros(2), "scale": torch.tensor(2.0)}))

for label, args in [
    ("a list of three", ([torch.ones(2)] * 3, cfg)),
    ("a tuple, not a list", (tuple(xs), cfg)),
]:
    try:
        m(*args)
    except ValueError as e:
        print(f"{label}: ValueError:", str(e).splitlines()[0].rstrip(": "))
