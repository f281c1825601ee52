import json
import os
import re

import torch
from torch.profiler import profile, schedule, tensorboard_trace_handler

torch.manual_seed(0)

os.environ["KINETO_LOG_LEVEL"] = "6"  # mute the profiler's start/stop lines (times, pids)
model = torch.nn.Linear(16, 4)
plan = schedule(wait=1, warmup=1, active=2, repeat=2)
print("actions for steps 0-9:", [plan(step).name for step in range(10)])

ready = []
handler = tensorboard_trace_handler("traces")


def on_trace_ready(prof):
    ready.append(prof.step_num)
    handler(prof)  # writes one Chrome trace file per call


with profile(schedule=plan, on_trace_ready=on_trace_ready) as prof:
    for _ in range(10):
        model(torch.randn(8, 16)).sum().backward()
        prof.step()  # tells the schedule a step ended

print("on_trace_ready called after steps:", ready)
files = sorted(os.listdir("traces"))
print("files:", [re.sub(r"^.*_\d+\.\d+\.", "<hostname>_<pid>.<time_ns>.", f) for f in files])
for name in files:
    with open(os.path.join("traces", name)) as f:
        events = json.load(f)["traceEvents"]
    steps = sorted({e["name"] for e in events if e.get("name", "").startswith("ProfilerStep#")})
    print(f"  trace holds {steps}")
print("ProfilerStep rows in prof.key_averages() after the run:",
      {r.key: r.count for r in prof.key_averages() if r.key.startswith("ProfilerStep")})
