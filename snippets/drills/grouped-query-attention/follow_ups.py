# The follow-ups of grouped-query-attention, on the pinned torch: the KV cache's size per token
# for multi-head, grouped-query and multi-query attention, what enable_gqa pairs and what it runs
# on CPU, and the gradient of a shared key/value head.
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.flop_counter import FlopCounterMode
from _reference import gqa_attention

torch.manual_seed(0)

# KV cache per token: one k and one v of shape (B=1, Hkv, 1, D) per layer, bfloat16.
LAYERS, HQ, D = 32, 32, 128
for name, hkv in (("multi-head", 32), ("grouped-query", 8), ("multi-query", 1)):
    cache = [torch.zeros(1, hkv, 1, D, dtype=torch.bfloat16) for _ in range(2 * LAYERS)]
    per_token = sum(t.nbytes for t in cache)
    print(f"{name:>13} (Hq={HQ}, Hkv={hkv:>2}): {per_token // 1024:>3} KiB per token,"
          f" {per_token * 8192 / 2**30:.3g} GiB for 8,192 tokens")

# enable_gqa pairs query head h with kv head h // (Hq // Hkv): repeat_interleave, not repeat.
q, k, v = torch.randn(1, 8, 4, 16), torch.randn(1, 2, 4, 16), torch.randn(1, 2, 4, 16)
gqa = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
interleaved = F.scaled_dot_product_attention(q, k.repeat_interleave(4, dim=1),
                                             v.repeat_interleave(4, dim=1))
tiled = F.scaled_dot_product_attention(q, k.repeat(1, 4, 1, 1), v.repeat(1, 4, 1, 1))
print("enable_gqa equals repeat_interleave(4, dim=1):", torch.allclose(gqa, interleaved, atol=1e-6))
print("enable_gqa equals repeat(1, 4, 1, 1):", torch.allclose(gqa, tiled, atol=1e-6))


# What runs: the aten ops dispatched, with the shapes they produce.
class Ops(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.lines = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        shapes = [tuple(a.shape) for a in args if isinstance(a, torch.Tensor)]
        outs = out if isinstance(out, tuple) else (out,)
        self.lines.append(f"{func.__name__.split('.')[0]}{shapes} -> "
                          f"{[tuple(o.shape) for o in outs if isinstance(o, torch.Tensor)]}")
        return out


with Ops() as ops:
    F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
print("CPU float32, default backend:", *ops.lines, sep="\n  ")
with sdpa_kernel(SDPBackend.MATH), Ops() as ops:
    F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
first_bmm = next(i for i, line in enumerate(ops.lines) if line.startswith("bmm"))
print("SDPBackend.MATH, the ops before the first bmm:", *ops.lines[:first_bmm], sep="\n  ")

# The reference: the 4 query heads of a kv head stacked as 4 * L rows, one bmm per kv head.
with Ops() as ops:
    mine = gqa_attention(q, k, v)
print("the reference equals enable_gqa:", torch.allclose(mine, gqa, atol=1e-6))
print("the reference's ops:", ", ".join(line.split("[")[0] for line in ops.lines))
print("its bmm operands:", *[line for line in ops.lines if line.startswith("bmm")], sep="\n  ")

# The arithmetic does not shrink: FLOPs counted on the math backend (whose matmuls
# FlopCounterMode sees), 8 query heads against 2 kv heads and against 8.
for hkv in (2, 8):
    kk, vv = torch.randn(1, hkv, 4, 16), torch.randn(1, hkv, 4, 16)
    with sdpa_kernel(SDPBackend.MATH), FlopCounterMode(display=False) as counter:
        F.scaled_dot_product_attention(q, kk, vv, enable_gqa=True)
    print(f"Hq=8, Hkv={hkv}: {counter.get_total_flops()} FLOPs")

# The gradient of a shared kv head is the sum of the gradients of its 4 copies.
k = k.double().requires_grad_()
v = v.double()
q = q.double()
out = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
upstream = torch.randn(out.shape, dtype=torch.float64)
(grad_k,) = torch.autograd.grad((out * upstream).sum(), k)
copies = k.detach().repeat_interleave(4, dim=1).requires_grad_()
out = F.scaled_dot_product_attention(q, copies, v.repeat_interleave(4, dim=1))
(grad_copies,) = torch.autograd.grad((out * upstream).sum(), copies)
print("k.grad equals the per-copy gradients summed over each group of 4:",
      torch.allclose(grad_k, grad_copies.reshape(1, 2, 4, 4, 16).sum(dim=2)))
