#| expect: RuntimeError
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode


class OpLog(TorchDispatchMode):  # records each ATen op and the shapes it receives
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append((func.__name__, [tuple(a.shape) for a in args if isinstance(a, torch.Tensor)]))
        return func(*args, **(kwargs or {}))


torch.manual_seed(0)
B, Hq, L, Dh = 2, 8, 10, 16
q = torch.randn(B, Hq, L, Dh)
for name, Hkv in [("MHA", 8), ("GQA", 2), ("MQA", 1)]:
    k, v = torch.randn(B, Hkv, L, Dh), torch.randn(B, Hkv, L, Dh)
    G = Hq // Hkv  # query heads per kv head
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    # Reference: give every query head its kv head explicitly. Head h uses kv head h // G.
    ref = F.scaled_dot_product_attention(
        q, k.repeat_interleave(G, dim=1), v.repeat_interleave(G, dim=1), is_causal=True)
    wrong = F.scaled_dot_product_attention(  # repeat gives kv heads 0, 1, 0, 1, ...: wrong grouping
        q, k.repeat(1, G, 1, 1), v.repeat(1, G, 1, 1), is_causal=True)
    print(f"{name}: kv_heads {Hkv}, group size {G}, output {tuple(out.shape)},",
          f"equals repeat_interleave: {(out - ref).abs().max().item() < 1e-6},",
          f"equals repeat: {(out - wrong).abs().max().item() < 1e-6}")

k, v = torch.randn(B, 2, L, Dh), torch.randn(B, 2, L, Dh)
with OpLog() as log:
    log.ops = []
    F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
print("CPU dispatch:", log.ops)
F.scaled_dot_product_attention(q, k, v)  # without enable_gqa: 8 query heads, 2 kv heads
