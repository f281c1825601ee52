# The follow-ups of online-softmax-attention, on the pinned torch: why the running max, what the
# blockwise version holds at once against the (L, S) matrix, what SDPA's CPU flash kernel saves for
# the backward, and a count of the memory traffic that tiling saves.
import math

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves
from _reference import blockwise_attention

torch.manual_seed(0)

# 1. exp overflows: float32 above about 88, float64 above about 709 (and is 0 below about -745). Softmax does not change when
# every score of a row is shifted by one number, so exp(score - max) gives the same weights.
print("float32 exp(88), exp(89):", [f"{x:.4g}" for x in torch.exp(torch.tensor([88.0, 89.0])).tolist()])
print("float64 exp(709), exp(710):",
      [f"{x:.4g}" for x in torch.exp(torch.tensor([709.0, 710.0], dtype=torch.float64)).tolist()])
print("float64 exp(-746) == 0:", torch.exp(torch.tensor(-746.0, dtype=torch.float64)).item() == 0.0)
row = torch.tensor([1000.0, 999.0, 990.0], dtype=torch.float64)
naive = row.exp() / row.exp().sum()
print("exp(row) / sum for scores near 1000:", naive.tolist(),
      "| exp(row - max) / sum:", [round(x, 6) for x in ((row - row.max()).exp()
                                                       / (row - row.max()).exp().sum()).tolist()])

# 2. The online update is exact: merging block statistics (max m, sum l) equals one pass.
scores = torch.randn(10, dtype=torch.float64) * 5
m, l = torch.tensor(float("-inf"), dtype=torch.float64), torch.tensor(0.0, dtype=torch.float64)
for block in scores.split(4):  # blocks of 4, 4 and 2
    m_new = torch.maximum(m, block.max())
    l = l * torch.exp(m - m_new) + torch.exp(block - m_new).sum()
    m = m_new
print("m + log(l) after 3 blocks equals logsumexp of the row:",
      torch.allclose(m + torch.log(l), torch.logsumexp(scores, 0), rtol=1e-12, atol=0))


# 3. What is held at once: the largest tensor any op creates, L = S = 1024, D = 64, one head.
class Largest(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.numel, self.shape = 0, ()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in tree_leaves(out):
            if isinstance(t, torch.Tensor) and t.numel() > self.numel:
                self.numel, self.shape = t.numel(), tuple(t.shape)
        return out


q, k, v = (torch.randn(1, 1, 1024, 64) for _ in range(3))
with torch.no_grad():
    with Largest() as blockwise:
        out = blockwise_attention(q, k, v, 128)
    with Largest() as plain:
        expected = torch.softmax(q @ k.transpose(-2, -1) / 8, dim=-1) @ v
print("blockwise (blocks of 128) equals plain softmax attention:",
      torch.allclose(out, expected, atol=1e-5))
print(f"largest tensor created: blockwise {blockwise.shape} ({blockwise.numel} elements),"
      f" plain {plain.shape} ({plain.numel} elements)")

# 4. What SDPA's CPU flash kernel keeps for the backward: no (L, S) matrix, but the output and
# one logsumexp per query row, from which the backward recomputes the weights block by block.
q = torch.randn(1, 2, 5, 8, requires_grad=True)
k, v = torch.randn(1, 2, 7, 8), torch.randn(1, 2, 7, 8)
node = F.scaled_dot_product_attention(q, k, v).grad_fn
print(type(node).__name__, "saves:",
      {name.removeprefix("_saved_"): tuple(getattr(node, name).shape)
       for name in dir(node) if name.startswith("_saved_")
       and isinstance(getattr(node, name), torch.Tensor)})
print("its logsumexp equals logsumexp(q @ k^T / sqrt(D)) over the keys:",
      torch.allclose(node._saved_logsumexp, torch.logsumexp(q @ k.transpose(-2, -1) / math.sqrt(8), -1),
                     atol=1e-5))
plain = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(8), dim=-1)
print("a plain softmax saves its result for the backward:",
      tuple(plain.grad_fn._saved_result.shape))

# 5. Memory traffic, counted (a model, not a measurement): one head, L = S = 4096, D = 64,
# 2 bytes a number. Unfused: Q, K, V read and O written once, and the (L, S) scores written by
# the first matmul, read and the weights written by the softmax, the weights read by the second
# matmul. Tiled (FlashAttention): query tiles of Br rows stay on chip, K and V are read once per
# query tile, Q read and O written once, no (L, S) matrix in memory.
L = S = 4096
D, BYTES = 64, 2
unfused = (3 * L * D + L * D + 4 * L * S) * BYTES
print(f"unfused: {unfused / 2**20:.0f} MiB, of which the (L, S) matrices"
      f" {4 * L * S * BYTES / 2**20:.0f} MiB")
for br in (64, 128, 256):
    tiled = (L * D + L * D + (L // br) * 2 * S * D) * BYTES
    print(f"tiled, Br = {br}: {tiled / 2**20:.0f} MiB ({unfused / tiled:.1f} times less)")
