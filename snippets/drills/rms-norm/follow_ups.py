# The follow-ups of rms-norm, on the pinned torch: RMSNorm against LayerNorm, what F.rms_norm does
# with float16 and bfloat16 on CPU, the backward written by hand, and the eps torch uses by default.
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils._python_dispatch import TorchDispatchMode

g = torch.Generator().manual_seed(0)
D = 16

# RMSNorm is LayerNorm without the centring and without the bias.
x = torch.randn(4, D, generator=g, dtype=torch.float64) + 2.0
w = torch.randn(D, generator=g, dtype=torch.float64)
centred = x - x.mean(dim=-1, keepdim=True)
print("layer_norm(x) equals rms_norm(x - mean(x)):",
      torch.allclose(F.layer_norm(x, (D,), w, None, 1e-6), F.rms_norm(centred, (D,), w, 1e-6)))
print("rms_norm(x) equals layer_norm(x) for these rows (randn + 2):",
      torch.allclose(F.layer_norm(x, (D,), w, None, 1e-6), F.rms_norm(x, (D,), w, 1e-6)))
print("nn.LayerNorm parameters:", [n for n, _ in nn.LayerNorm(D).named_parameters()])
print("nn.RMSNorm parameters:", [n for n, _ in nn.RMSNorm(D).named_parameters()])


# Half precision: the aten ops F.rms_norm runs on CPU for a bfloat16 input (no gradient
# required), then for float16.
class Ops(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.names = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self.names.append(f"{func.__name__.split('.')[0]} -> {str(out.dtype).removeprefix('torch.')}")
        return out


xb = torch.randn(4, D, generator=g).bfloat16()
wb = torch.randn(D, generator=g).bfloat16()
with Ops() as ops:
    yb = F.rms_norm(xb, (D,), wb, 1e-6)
print("aten ops (-> output dtype) for a bfloat16 input:", ", ".join(ops.names))
in_float32 = (xb.float() * torch.rsqrt(xb.float().pow(2).mean(-1, keepdim=True) + 1e-6)
              * wb.float()).bfloat16()
print("bfloat16 output dtype:", yb.dtype, "| equals the float32 computation cast back:",
      torch.equal(yb, in_float32))
xf, wf = xb.half(), wb.half()
with Ops() as half_ops:
    yf = F.rms_norm(xf, (D,), wf, 1e-6)
in_float32 = (xf.float() * torch.rsqrt(xf.float().pow(2).mean(-1, keepdim=True) + 1e-6)
              * wf.float()).half()
print("float16:", ", ".join(half_ops.names))
print("float16 output dtype:", yf.dtype,
      "| equals the float32 computation cast back:", torch.equal(yf, in_float32))
xh = torch.full((1, 4), 300.0, dtype=torch.float16)
print("float16 max:", torch.finfo(torch.float16).max, "| squared in float16:",
      {v: torch.tensor(v, dtype=torch.float16).pow(2).item() for v in (255.875, 256.0, 300.0)})
print("naive float16 x / sqrt(mean(x ** 2) + eps):",
      (xh / torch.sqrt(xh.pow(2).mean(-1, keepdim=True) + 1e-6)).tolist())
print("F.rms_norm on the same float16 row:", F.rms_norm(xh, (4,), None, 1e-6).tolist())

# The backward by hand: x_hat = x * r with r = 1 / sqrt(mean(x ** 2) + eps), and upstream u,
#   dweight = sum over rows of u * x_hat
#   dx = r * (u * w - x_hat * mean(u * w * x_hat))   (mean over the last dimension)
x = torch.randn(3, 5, D, generator=g, dtype=torch.float64, requires_grad=True)
w = torch.randn(D, generator=g, dtype=torch.float64, requires_grad=True)
u = torch.randn(3, 5, D, generator=g, dtype=torch.float64)
dx, dw = torch.autograd.grad((F.rms_norm(x, (D,), w, 1e-6) * u).sum(), (x, w))
with torch.no_grad():
    r = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
    x_hat = x * r
    uw = u * w
    dx_hand = r * (uw - x_hat * (uw * x_hat).mean(-1, keepdim=True))
    dw_hand = (u * x_hat).sum(dim=(0, 1))
print("hand-written dx equals autograd's:", torch.allclose(dx, dx_hand, rtol=1e-10, atol=1e-12))
print("hand-written dweight equals autograd's:", torch.allclose(dw, dw_hand, rtol=1e-10, atol=1e-12))

# eps=None, torch's default (F.rms_norm and nn.RMSNorm): the machine epsilon of the dtype.
print("nn.RMSNorm(16).eps:", nn.RMSNorm(D).eps)
for dtype in (torch.float32, torch.float64):
    tiny = torch.full((1, 4), 1e-5, dtype=dtype)
    eps = torch.finfo(dtype).eps
    by_hand = tiny * torch.rsqrt(tiny.pow(2).mean(-1, keepdim=True) + eps)
    print(f"{dtype}: eps=None equals eps=finfo.eps ({eps:.3g}):",
          torch.allclose(F.rms_norm(tiny, (4,)), by_hand),
          f"| output {F.rms_norm(tiny, (4,))[0, 0].item():.4f};"
          f" with eps=1e-6 {F.rms_norm(tiny, (4,), None, 1e-6)[0, 0].item():.4f}")
