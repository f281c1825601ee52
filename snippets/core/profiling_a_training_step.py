import os

import torch
from torch.profiler import ProfilerActivity, profile, record_function

torch.manual_seed(0)

os.environ["KINETO_LOG_LEVEL"] = "6"  # mute the profiler's start/stop lines (times, pids)
model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 32), torch.randint(0, 4, (8,))

with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    for _ in range(3):
        with record_function("forward"):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        with record_function("backward"):
            opt.zero_grad()
            loss.backward()
        with record_function("optimizer"):
            opt.step()

table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=5)
print("columns:", [c.strip() for c in table.splitlines()[1].split("  ") if c.strip()])

# the children under each label in the first step (evaluate_function prefix cut):
# a row's total time includes its children's, its self time does not
for event in prof.events():
    if event.name in ("forward", "backward", "optimizer") and event.cpu_parent is None:
        names = [c.name.removeprefix("autograd::engine::evaluate_function: ")
                 for c in event.cpu_children]
        print(f"{event.name} ->", ", ".join(f"{n} x{names.count(n)}" for n in dict.fromkeys(names)))
        if event.name == "optimizer":
            break

linear = next(e for e in prof.events() if e.name == "aten::linear")
print("aten::linear ->", ", ".join(c.name for c in linear.cpu_children))

print("\n# of Calls, summed over the 3 steps:")
for row in prof.key_averages():
    if row.key in ("forward", "aten::linear", "aten::addmm", "aten::mm",
                   "autograd::engine::evaluate_function: AddmmBackward0", "Optimizer.step#SGD.step"):
        print(f"  {row.key}: {row.count}")
