#| devices: cuda
import torch

torch.manual_seed(0)
n = 8192
a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)


def rate(fn, flops, nbytes, reps=20):
    fn()                                                   # warm up
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(reps):
        fn()
    end.record()
    end.synchronize()
    s = start.elapsed_time(end) / 1000 / reps
    return flops / s, nbytes / s


mm_flops, mm_bytes = rate(lambda: a @ b, 2 * n**3, 3 * n * n * 2)
add_flops, add_bytes = rate(lambda: a + b, n * n, 3 * n * n * 2)
print("matmul reaches over 100x the FLOP/s of add:", mm_flops > 100 * add_flops)
print("add moves more bytes per second than matmul:", add_bytes > mm_bytes)
