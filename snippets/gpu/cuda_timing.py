#| devices: cuda
import time
import warnings

import torch

torch.manual_seed(0)
a = torch.randn(4096, 4096, device="cuda")
for _ in range(3):  # warm up: cuBLAS handles, the allocator's cache
    a @ a
torch.cuda.synchronize()

t0 = time.perf_counter()
for _ in range(10):
    b = a @ a
t_launch = time.perf_counter() - t0          # only the launches
torch.cuda.synchronize()
t_total = time.perf_counter() - t0           # launches plus the work itself
print(f"host time without sync / with sync: {t_launch / t_total:.2f}")

start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
start.record()
for _ in range(10):
    b = a @ a
end.record()
end.synchronize()                            # elapsed_time needs both events done
print(f"events: {start.elapsed_time(end) / 10:.2f} ms per matmul")

torch.cuda.set_sync_debug_mode("warn")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    b.sum().item()
    b[b > 0]
    torch.where(b > 0, b, 0)
torch.cuda.set_sync_debug_mode("default")
for w in caught:
    print("warned:", str(w.message).splitlines()[0][:80])
