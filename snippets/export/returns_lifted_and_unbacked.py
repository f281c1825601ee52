#| devices: cpu
import torch


class Pick(torch.nn.Module):
    def forward(self, x):
        offsets = torch.tensor([10.0, 20.0, 30.0])  # a tensor created inside forward
        return (x + offsets).nonzero()  # how many rows come back depends on the values


ep = torch.export.export(Pick(), (torch.tensor([1.0, 0.0, 2.0]),))  # no dynamic_shapes

for spec in ep.graph_signature.input_specs:
    print(f"{spec.kind.name:15} name={spec.arg.name:18} target={spec.target}")
print("ep.constants keys:", list(ep.constants))
print("range_constraints:", ep.range_constraints)
out = [n for n in ep.graph.nodes if n.op == "output"][0].args[0][0]
print("output shape:", tuple(out.meta["val"].shape))
