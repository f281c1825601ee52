import json
import zipfile

import torch
from torch.export import Dim

torch.manual_seed(0)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 2)
        self.bn = torch.nn.BatchNorm1d(2)

    def forward(self, x):
        return self.bn(self.lin(x))


model = Net().eval()
batch = Dim("batch", min=2, max=64)
ep = torch.export.export(model, (torch.randn(3, 4),), dynamic_shapes={"x": {0: batch}})
torch.export.save(ep, "net.pt2", extra_files={"notes.txt": "trained on v3 data"})

with zipfile.ZipFile("net.pt2") as z:
    print("\n".join(sorted(z.namelist())))
    header = json.loads(z.read("net/models/model.json"))
print({k: header[k] for k in ("schema_version", "opset_version", "torch_version")})

extra = {"notes.txt": ""}
loaded = torch.export.load("net.pt2", extra_files=extra)
print("extra file:", extra["notes.txt"])
print("range constraints:", loaded.range_constraints)
print("example inputs:", [tuple(t.shape) for t in loaded.example_inputs[0]])
x = torch.randn(10, 4)
print("same output:", torch.allclose(loaded.module()(x), model(x)))
try:
    loaded.module()(torch.randn(100, 4))  # outside the saved range
except AssertionError as e:
    print("batch 100:", e)
