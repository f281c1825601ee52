import torch

for dt in (torch.float16, torch.bfloat16, torch.float32):
    fi = torch.finfo(dt)
    zero = torch.zeros((), dtype=dt)
    subnormal = torch.nextafter(zero, torch.ones((), dtype=dt)).item()  # the smallest value above 0
    print(f"{str(dt):15} max {fi.max:.3g}  smallest normal {fi.tiny:.3g}"
          f"  smallest subnormal {subnormal:.3g}  eps {fi.eps:.3g}")

g = torch.tensor([1e-8, 3e-5, 7e4])  # a tiny, a small and a large fp32 gradient value
print("fp16:               ", g.half().tolist())
print("bf16:               ", g.bfloat16().tolist())
print("fp16 of g * 2**16:  ", (g * 2**16).half().tolist())
