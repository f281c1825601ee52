#| devices: cpu
import json
import logging
import zipfile

import torch
from torch._export.serde.serialize import SerializeError

torch.manual_seed(0)

logging.getLogger("torch.export").setLevel(logging.CRITICAL)  # the loader's own warning, with a traceback

ep = torch.export.export(torch.nn.Linear(2, 2), (torch.randn(1, 2),))
torch.export.save(ep, "model.pt2")


def rewrite(path, edit):
    """Copy model.pt2 to path, passing each member's bytes through edit(name, data)."""
    with zipfile.ZipFile("model.pt2") as src, zipfile.ZipFile(path, "w") as dst:
        for name in src.namelist():
            dst.writestr(name, edit(name, src.read(name)))


def bump_schema_major(name, data):
    if not name.endswith("models/model.json"):
        return data
    doc = json.loads(data)
    doc["schema_version"]["major"] += 1
    return json.dumps(doc).encode()


rewrite("new_archive.pt2", lambda name, data: b"99" if name.endswith("/archive_version") else data)
rewrite("new_schema.pt2", bump_schema_major)

for path in ("new_archive.pt2", "new_schema.pt2"):
    try:
        torch.export.load(path)
    except Exception as e:
        print(f"{path}: {type(e).__name__} (a SerializeError: {isinstance(e, SerializeError)})")
        print("   ", str(e).strip().splitlines()[0])
