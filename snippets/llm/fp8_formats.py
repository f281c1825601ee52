import torch

for dt in (torch.float8_e4m3fn, torch.float8_e5m2):
    fi = torch.finfo(dt)
    print(f"{str(dt):21s} max {fi.max:>7}  eps {fi.eps}  smallest normal {fi.smallest_normal:.3g}")

x = torch.tensor([1000.0, 480.0, 464.0, 60000.0, 70000.0, float("inf"), float("nan"), 0.1, 1e-4])
print("input         ", x.tolist())
print("to(e4m3fn)    ", x.to(torch.float8_e4m3fn).float().tolist())
print("to(e5m2)      ", x.to(torch.float8_e5m2).float().tolist())
print("bytes per element:", torch.empty(1, dtype=torch.float8_e4m3fn).element_size())
