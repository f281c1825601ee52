#| devices: cpu
import os

import torch
from torch.profiler import ProfilerActivity, profile, record_function
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

if __name__ == "__main__":
    os.environ["KINETO_LOG_LEVEL"] = "6"  # mute the profiler's start/stop lines (times, pids)
    data = TensorDataset(torch.randn(64, 16), torch.randint(0, 4, (64,)))
    loader = DataLoader(data, batch_size=16, num_workers=2)
    model = torch.nn.Linear(16, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for x, y in loader:  # the wait for each batch is recorded by the DataLoader itself
            with record_function("train_step"):
                loss = torch.nn.functional.cross_entropy(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()

    for row in prof.key_averages():
        if row.key.startswith("enumerate(DataLoader)") or row.key == "train_step":
            print(f"{row.key}: count={row.count}")
    # compare these two rows' total CPU time (cpu_time_total) in the table:
    # a large DataLoader total against a small train_step total means the loop waits for data
