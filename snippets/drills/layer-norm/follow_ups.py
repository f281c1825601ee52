# The follow-ups of layer-norm, on the pinned torch: LayerNorm against BatchNorm in train and eval
# mode, LayerNorm against RMSNorm, why E[x^2] - E[x]^2 fails in float32 (and how far F.layer_norm
# itself is off there), what F.layer_norm does with float16 and bfloat16 on CPU, and the backward
# written by hand.
import torch
import torch.nn.functional as F
from _reference import layer_norm
from torch import nn

torch.manual_seed(0)
g = torch.Generator().manual_seed(0)
D = 16

# 1. LayerNorm has no running statistics: train and eval mode give the same output, and a
# sample's output does not depend on the rest of the batch. BatchNorm1d differs on both counts.
x = torch.randn(8, D, generator=g) * 2 + 1
ln, bn = nn.LayerNorm(D), nn.BatchNorm1d(D)
print("LayerNorm buffers:", [n for n, _ in ln.named_buffers()],
      "| BatchNorm1d buffers:", [n for n, _ in bn.named_buffers()])
ln.train()
train_out = ln(x)
ln.eval()
print("LayerNorm: train output equals eval output:", torch.equal(train_out, ln(x)))
print("LayerNorm: ln(x)[:2] equals ln(x[:2]):", torch.equal(ln(x)[:2], ln(x[:2])))
bn.train()
bn_train = bn(x)
bn.eval()
print("BatchNorm1d after one training batch: train output equals eval output:",
      torch.allclose(bn_train, bn(x)))
bn.train()
print("BatchNorm1d (train): bn(x)[:2] equals bn(x[:2]):", torch.allclose(bn(x)[:2], bn(x[:2])))

# 2. RMSNorm: LayerNorm without the centring and without the bias.
w = torch.randn(D, generator=g)
print("layer_norm(x) equals rms_norm(x - mean(x)):",
      torch.allclose(F.layer_norm(x, (D,), w, None), F.rms_norm(x - x.mean(-1, keepdim=True), (D,), w,
                                                               1e-5), atol=1e-6))
print("nn.LayerNorm parameters:", [n for n, _ in nn.LayerNorm(D).named_parameters()],
      "| nn.RMSNorm parameters:", [n for n, _ in nn.RMSNorm(D).named_parameters()])


# 3. Large offsets in float32: the largest error against F.layer_norm in float64 on the same
# values (NaN counts as inf), over the judge's large_offset inputs: 3 seeds, x (8, 16) and (4, 768).
def naive(x, eps=1e-5):
    mean = x.mean(-1, keepdim=True)
    return (x - mean) / torch.sqrt((x * x).mean(-1, keepdim=True) - mean * mean + eps)


def var_mean_norm(x, eps=1e-5):
    var, mean = torch.var_mean(x, -1, correction=0, keepdim=True)
    return (x - mean) * torch.rsqrt(var + eps)


for shift in (0.0, 1e2, 1e3, 1e4):
    worst, negative, rows = {}, 0, 0
    for seed in range(3):
        for shape in ((8, 16), (4, 768)):
            gs = torch.Generator().manual_seed(seed)
            xs = (torch.randn(shape, generator=gs, dtype=torch.float64) + shift).float()
            truth = F.layer_norm(xs.double(), shape[-1:])
            for name, y in (("F.layer_norm float32", F.layer_norm(xs, shape[-1:])),
                            ("two-pass float32 (the reference)", layer_norm(xs, shape[-1:])),
                            ("torch.var_mean float32", var_mean_norm(xs)),
                            ("E[x^2] - E[x]^2 float32", naive(xs)),
                            ("E[x^2] - E[x]^2 float64", naive(xs.double()))):
                err = (y.double() - truth).abs().nan_to_num(nan=float("inf")).max().item()
                worst[name] = max(worst.get(name, 0.0), err)
            negative += int(((xs * xs).mean(-1) - xs.mean(-1) ** 2 < 0).sum())
            rows += shape[0]
    print(f"mean {shift:g}, spread 1:", ", ".join(f"{k} {v:.1e}" for k, v in worst.items()),
          f"| rows whose float32 E[x^2] - E[x]^2 < 0: {negative} of {rows}")

# 4. float16 and bfloat16 on CPU.
for dtype in (torch.float16, torch.bfloat16):
    xh = (torch.randn(4, D, generator=g) * 2 + 100).to(dtype)
    wh, bh = torch.randn(D, generator=g).to(dtype), torch.randn(D, generator=g).to(dtype)
    out, mean, rstd = torch.native_layer_norm(xh, (D,), wh, bh, 1e-5)
    y = F.layer_norm(xh, (D,), wh, bh)
    in_float32 = F.layer_norm(xh.float(), (D,), wh.float(), bh.float()).to(dtype)
    xc = xh - xh.mean(-1, keepdim=True)
    in_own = xc / torch.sqrt(xc.pow(2).mean(-1, keepdim=True) + 1e-5) * wh + bh
    print(f"{dtype}: F.layer_norm returns {y.dtype}; native_layer_norm's out, mean, rstd:",
          out.dtype, mean.dtype, rstd.dtype,
          f"| largest |difference| from F.layer_norm on float32 cast back:"
          f" {(y.float() - in_float32.float()).abs().max().item():.2g};"
          f" from computing in {str(dtype).removeprefix('torch.')}:"
          f" {(y.float() - in_own.float()).abs().max().item():.2g}")

# 5. The backward by hand, with x_hat = (x - mean) * rstd, upstream u and g = u * weight:
#   dx = rstd * (g - mean(g) - x_hat * mean(g * x_hat)),  dweight = sum(u * x_hat),  dbias = sum(u)
x = torch.randn(3, 5, D, generator=g, dtype=torch.float64, requires_grad=True)
w = torch.randn(D, generator=g, dtype=torch.float64, requires_grad=True)
b = torch.randn(D, generator=g, dtype=torch.float64, requires_grad=True)
u = torch.randn(3, 5, D, generator=g, dtype=torch.float64)
dx, dw, db = torch.autograd.grad((F.layer_norm(x, (D,), w, b) * u).sum(), (x, w, b))
with torch.no_grad():
    mean = x.mean(-1, keepdim=True)
    rstd = torch.rsqrt((x - mean).pow(2).mean(-1, keepdim=True) + 1e-5)
    x_hat, gw = (x - mean) * rstd, u * w
    dx_hand = rstd * (gw - gw.mean(-1, keepdim=True) - x_hat * (gw * x_hat).mean(-1, keepdim=True))
print("hand-written dx, dweight, dbias equal autograd's:",
      torch.allclose(dx, dx_hand, rtol=1e-10, atol=1e-12),
      torch.allclose(dw, (u * x_hat).sum((0, 1)), rtol=1e-10, atol=1e-12),
      torch.allclose(db, u.sum((0, 1)), rtol=1e-10, atol=1e-12))
