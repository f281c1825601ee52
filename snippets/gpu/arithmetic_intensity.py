import torch
from torch.utils.flop_counter import FlopCounterMode

# Shapes only: the meta device allocates nothing, FlopCounterMode counts from shapes.
n, bytes_per = 4096, 2                                   # bf16: 2 bytes an element
a = torch.empty(n, n, device="meta", dtype=torch.bfloat16)
b = torch.empty(n, n, device="meta", dtype=torch.bfloat16)

for name, fn, ins in [("matmul a @ b", lambda: a @ b, [a, b]), ("add a + b", lambda: a + b, [a, b])]:
    with FlopCounterMode(display=False) as fc:
        out = fn()
    print(f"{name}: FlopCounterMode counts {fc.get_total_flops():,d} FLOPs")

# By hand: a matmul does 2*n^3 FLOPs (a multiply and an add per term), an add 1 per element.
# Bytes: read each input once, write the output once (the least any kernel can move).
for name, flops, tensors in [("matmul", 2 * n**3, 3), ("add", n * n, 3)]:
    moved = tensors * n * n * bytes_per
    print(f"{name:6s} FLOPs {flops:>15,d}  bytes {moved:>11,d}  intensity {flops / moved:7.2f} FLOPs/byte")

# The roofline ridge of an EXAMPLE accelerator (made-up round numbers, not a measured GPU).
peak_flops, bandwidth = 1000e12, 4e12                    # FLOP/s and byte/s
ridge = peak_flops / bandwidth
print(f"example ridge point: {ridge:.0f} FLOPs/byte")
for name, intensity in [("matmul", 2 * n**3 / (3 * n * n * bytes_per)), ("add", 1 / (3 * bytes_per))]:
    bound = "compute-bound" if intensity > ridge else "memory-bound"
    attainable = min(peak_flops, intensity * bandwidth)
    print(f"{name:6s} {bound}, attainable {attainable / 1e12:7.2f} TFLOP/s of the example's 1000")
