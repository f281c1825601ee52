import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 1024), nn.GELU(), nn.Linear(1024, 256))
x = torch.randn(64, 256)

with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
    model(x).sum().backward()

# Self memory: bytes an op allocated minus bytes it freed, summed over its calls.
rows = sorted(prof.key_averages(), key=lambda e: e.self_cpu_memory_usage, reverse=True)
print(f"{'op':<28}{'calls':>6}{'self CPU mem (bytes)':>22}")
for e in rows[:5]:
    print(f"{e.key:<28}{e.count:>6}{e.self_cpu_memory_usage:>22}")
