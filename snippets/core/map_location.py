#| expect: RuntimeError
#| devices: cpu
import io

import torch

big = torch.arange(1_000_000, dtype=torch.float32)
for name, t in [("big[:10]", big[:10]), ("big[:10].clone()", big[:10].clone())]:
    buf = io.BytesIO()
    torch.save(t, buf)  # a view is saved with its whole storage
    print(f"torch.save({name}): {len(buf.getvalue()):,} bytes")

buf.seek(0)
print("map_location='meta':", torch.load(buf, map_location="meta").device)
buf.seek(0)
print("map_location=torch.device('cpu'):", torch.load(buf, map_location=torch.device("cpu")).device)
buf.seek(0)
# Each storage is restored where it was saved, unless map_location says otherwise.
# A file saved on a GPU restores to "cuda:N"; on a machine without CUDA that raises:
torch.load(buf, map_location={"cpu": "cuda:0"})
