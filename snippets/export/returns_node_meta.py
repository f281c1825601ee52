import os

import torch

torch.manual_seed(0)

device = os.environ.get("SNIPPET_DEVICE", "cpu")


class Head(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 4)

    def forward(self, x):
        logits = self.proj(x)
        return logits.argmax(dim=-1), logits.half()


model = Head().to(device)
ep = torch.export.export(model, (torch.randn(3, 8, device=device),))

# Every node keeps a FakeTensor in meta["val"]: shape, dtype, device, no data.
for node in ep.graph.nodes:
    val = node.meta.get("val")
    if isinstance(val, torch.Tensor):
        where = f"{val.dtype} on {val.device}"
        print(f"{node.name:14} {node.target!s:20} {where:24} {tuple(val.shape)}")

x_val = ep.graph.find_nodes(op="placeholder", target="x")[0].meta["val"]
print("type of meta['val']:", type(x_val).__name__)
