#| devices: cpu
import copy

import torch
from torch.testing._comparison import default_tolerances

torch.manual_seed(0)

# The per-dtype defaults that torch.testing.assert_close uses when rtol and atol are not given
for dtype in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
    rtol, atol = default_tolerances(dtype)
    print(f"{str(dtype):15} rtol={rtol:<7} atol={atol}")
print("two dtypes -> the looser of each:", default_tolerances(torch.float32, torch.bfloat16))
for dtype in (torch.float16, torch.bfloat16, torch.float32):
    fi = torch.finfo(dtype)
    print(f"finfo {str(dtype):15} eps={fi.eps:.3g}  max={fi.max:.3g}")

model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.GELU(), torch.nn.Linear(64, 8)).eval()
x = torch.randn(16, 64)
with torch.no_grad():
    ref = model(x)
    out = {dt: copy.deepcopy(model).to(dt)(x.to(dt)) for dt in (torch.bfloat16, torch.float16)}


def check(actual, expected, **kw):
    try:
        torch.testing.assert_close(actual, expected, **kw)
        return "pass"
    except AssertionError as e:
        return "fail: " + str(e).splitlines()[0]


for dt, y in out.items():
    rtol, atol = default_tolerances(dt)
    print(f"{dt} model against the fp32 model:")
    print("  as is                  ->", check(y, ref))
    print("  upcast, fp32 defaults  ->", check(y.float(), ref))
    print(f"  upcast, {str(dt)[6:]} defaults ->", check(y.float(), ref, rtol=rtol, atol=atol))
    for tol in (1e-3, 1e-2, 1e-1):
        print(f"  upcast, rtol=atol={tol:<6} ->", check(y.float(), ref, rtol=tol, atol=tol))
