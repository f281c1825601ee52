#| expect: RuntimeError
import json
import logging
import zipfile

import torch

torch.manual_seed(0)


class AddOne(torch.nn.Module):
    def forward(self, x):
        return x + 1


torch.export.save(torch.export.export(AddOne(), (torch.randn(2),)), "new.pt2")

# Pretend the file came from a torch whose serialization schema had another major version.
with zipfile.ZipFile("new.pt2") as src, zipfile.ZipFile("old.pt2", "w") as dst:
    for item in src.infolist():
        data = src.read(item.filename)
        if item.filename.endswith("models/model.json"):
            header = json.loads(data)
            header["schema_version"]["major"] -= 1
            data = json.dumps(header).encode()
        dst.writestr(item, data)


def show_cause(record):  # load() logs the real cause as a warning, with a long traceback
    print("logged cause:", str(record.exc_info[1]))
    return False


logging.getLogger("torch.export").addFilter(show_cause)
torch.export.load("old.pt2")
