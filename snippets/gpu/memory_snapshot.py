#| devices: cuda
import collections
import pickle

import torch
from torch import nn

torch.manual_seed(0)
torch.cuda.memory._record_memory_history(max_entries=100_000)

model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).cuda()
opt = torch.optim.AdamW(model.parameters())
for step in range(3):
    loss = model(torch.randn(256, 1024, device="cuda")).square().mean()
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)

try:
    torch.empty(2**50, dtype=torch.uint8, device="cuda")  # 1 PiB: cannot fit
except torch.cuda.OutOfMemoryError as e:
    print("OutOfMemoryError:", str(e).splitlines()[0][:100])

torch.cuda.memory._dump_snapshot("snapshot.pickle")  # open at pytorch.org/memory_viz
torch.cuda.memory._record_memory_history(enabled=None)

with open("snapshot.pickle", "rb") as f:
    snap = pickle.load(f)
print("segments:", len(snap["segments"]))
for seg in snap["segments"][:3]:
    print(f"  {seg['segment_type']:<5} total {seg['total_size']:>10} allocated {seg['allocated_size']:>10}"
          f" blocks {len(seg['blocks'])}")
actions = collections.Counter(e["action"] for e in snap["device_traces"][0])
print("trace actions:", dict(sorted(actions.items())))
print("max allocated MiB:", round(torch.cuda.max_memory_allocated() / 2**20, 1))
