import os

import torch
from torch.profiler import profile

torch.manual_seed(0)

os.environ["KINETO_LOG_LEVEL"] = "6"  # mute the profiler's start/stop lines (times, pids)
model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 4))

with profile(record_shapes=True) as prof:
    for batch in (8, 8, 16):
        model(torch.randn(batch, 32)).sum().backward()

print("aten::addmm and aten::mm, one row per input shapes:")
for row in prof.key_averages(group_by_input_shape=True):
    if row.key in ("aten::addmm", "aten::mm"):
        print(f"  {row.key} calls={row.count} shapes={row.input_shapes}")

with profile() as prof:  # record_shapes defaults to False
    model(torch.randn(8, 32))
    model(torch.randn(16, 32))
rows = [r for r in prof.key_averages(group_by_input_shape=True) if r.key == "aten::addmm"]
print("without record_shapes:", [(r.count, r.input_shapes) for r in rows])
