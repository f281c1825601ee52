# The follow-ups of lora-linear, on the pinned torch: what LoRA saves in parameters and optimizer
# state, why B starts at zero (and what goes wrong with both zero), and a QLoRA-style frozen base
# stored in 4 bits, written with torch only.
import torch
from _reference import LoRALinear
from torch import nn

torch.manual_seed(0)

# 1. Parameter counts, on the meta device (shapes only, no memory).
for d in (1024, 4096):
    for r in (8, 64):
        lora = LoRALinear(nn.Linear(d, d, device="meta"), r=r, alpha=2 * r)
        total = sum(p.numel() for p in lora.parameters())
        trainable = sum(p.numel() for p in lora.parameters() if p.requires_grad)
        print(f"Linear({d}, {d}), r={r}: base {total - trainable:,} frozen,"
              f" LoRA {trainable:,} trainable = r * (in + out) = {r * (d + d):,}"
              f" ({100 * trainable / (total - trainable):.2f}% of the base)")

# AdamW keeps two state tensors per trained parameter: only the adapter's here.
lora = LoRALinear(nn.Linear(1024, 1024), r=8, alpha=16)
opt = torch.optim.AdamW([p for p in lora.parameters() if p.requires_grad], lr=1e-3)
lora(torch.randn(4, 1024)).square().mean().backward()
opt.step()
state = sum(t.numel() for s in opt.state.values() for k, t in s.items() if k != "step")
print("AdamW state elements (exp_avg + exp_avg_sq) for the adapter:", f"{state:,}",
      "| for a full fine-tune they would be", f"{2 * (1024 * 1024 + 1024):,}")
print("base.weight.grad after backward:", lora.base.weight.grad)

# 2. Why B starts at zero.
base = nn.Linear(16, 8)
x, target = torch.randn(32, 16), torch.randn(32, 8)
lora = LoRALinear(base, r=4, alpha=8)
print("at init, lora(x) equals base(x) exactly:", torch.equal(lora(x), base(x)))


def sgd_steps(layer, steps):
    """Plain SGD on the adapter; the gradient norms of A and B before each step."""
    opt = torch.optim.SGD([layer.lora_A, layer.lora_B], lr=0.1)
    norms = []
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(layer(x), target).backward()
        norms.append((round(layer.lora_A.grad.norm().item(), 4),
                      round(layer.lora_B.grad.norm().item(), 4)))
        opt.step()
    return norms


print("B = 0, A random: (|grad A|, |grad B|) at steps 1-3:", sgd_steps(lora, 3))
both_zero = LoRALinear(nn.Linear(16, 8), r=4, alpha=8)
with torch.no_grad():
    both_zero.lora_A.zero_()
print("A = 0 and B = 0: (|grad A|, |grad B|) at steps 1-3:", sgd_steps(both_zero, 3))
both_random = LoRALinear(base, r=4, alpha=8)
with torch.no_grad():
    both_random.lora_B.normal_()
print("A and B random: largest |lora(x) - base(x)| at init:",
      round((both_random(x) - base(x)).abs().max().item(), 3))

# 3. A QLoRA-style base: the frozen weight stored as 4-bit codes (two per byte) with one absmax
# scale per block of 64, dequantized for each matmul; the adapter stays in full precision.
# The 16 levels are the NF4 table of torchao's nf4_tensor.py (torchao is not used here).
LEVELS = torch.tensor([-1.0, -0.6962, -0.5251, -0.3949, -0.2844, -0.1848, -0.0911, 0.0,
                       0.0796, 0.1609, 0.2461, 0.3379, 0.4407, 0.5626, 0.7230, 1.0])


def quantize(w, block=64):
    blocks = w.reshape(-1, block)
    scale = blocks.abs().amax(dim=1, keepdim=True)
    codes = (blocks / scale).unsqueeze(-1).sub(LEVELS).abs().argmin(-1).to(torch.uint8)
    flat = codes.reshape(-1)
    return (flat[0::2] << 4 | flat[1::2]), scale  # packed (numel / 2,) uint8, (n_blocks, 1)


def dequantize(packed, scale, shape, dtype):
    codes = torch.stack((packed >> 4, packed & 15), dim=1).reshape(scale.shape[0], -1).long()
    return (LEVELS[codes] * scale).reshape(shape).to(dtype)


class FrozenLinear4bit(torch.autograd.Function):
    """y = x @ W^T with W dequantized on the fly; the gradient goes to x only."""

    @staticmethod
    def forward(ctx, x, packed, scale, shape):
        ctx.save_for_backward(packed, scale)
        ctx.shape = shape
        return x @ dequantize(packed, scale, shape, x.dtype).T

    @staticmethod
    def backward(ctx, grad_out):
        packed, scale = ctx.saved_tensors
        return grad_out @ dequantize(packed, scale, ctx.shape, grad_out.dtype), None, None, None


w = torch.randn(1024, 1024) * 0.02  # a normally distributed weight, as NF4 assumes
packed, scale = quantize(w)
print("weight bytes: float32", w.numel() * 4, "| bfloat16", w.numel() * 2, "| 4-bit codes",
      packed.numel() * packed.element_size(), "+ float32 scales", scale.numel() * 4)
print("mean |W - dequantized W| / mean |W|:",
      round(((w - dequantize(packed, scale, w.shape, w.dtype)).abs().mean() / w.abs().mean()).item(), 3))
a = nn.Parameter(torch.randn(8, 1024) * 0.03)
b = nn.Parameter(torch.randn(1024, 8) * 0.03)
xq = torch.randn(4, 1024, requires_grad=True)
y = FrozenLinear4bit.apply(xq, packed, scale, w.shape) + 2.0 * (xq @ a.T) @ b.T
y.square().mean().backward()
print("gradients reach x, A and B:", all(t.grad is not None for t in (xq, a, b)),
      "| the packed codes need none:", packed.requires_grad)
