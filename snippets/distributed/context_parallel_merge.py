import torch
import torch.nn.functional as F
from torch.distributed.tensor.experimental._context_parallel._attention import _SDPAMerger
from torch.distributed.tensor.experimental._context_parallel._load_balancer import (
    _HeadTailLoadBalancer,
)

torch.manual_seed(0)
q, k, v = (torch.randn(1, 2, 8, 16) for _ in range(3))
ref = F.scaled_dot_product_attention(q, k, v)

# the CPU flash kernel returns the output and the logsumexp of each query's scores
flash = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu
out_a, lse_a = flash(q, k[:, :, :4], v[:, :, :4])   # keys 0-3
out_b, lse_b = flash(q, k[:, :, 4:], v[:, :, 4:])   # keys 4-7
print("lse shape", tuple(lse_a.shape))
scores = q @ k[:, :, :4].transpose(-2, -1) / 16 ** 0.5
print("lse == logsumexp(scores):", torch.allclose(lse_a, scores.logsumexp(-1), atol=1e-6))

merger = _SDPAMerger(convert_to_f32=True, seq_dim=2)  # what context_parallel merges with
merger.step(out_a, lse_a, partial=False)
merger.step(out_b, lse_b, partial=False)
out, lse = merger.results()
print("merged == sdpa over all keys:", torch.allclose(out, ref, atol=1e-6))
print("averaging the two halves == sdpa:", torch.allclose((out_a + out_b) / 2, ref, atol=1e-6))

# the default load balancer's order for 16 tokens on 2 ranks: 4 chunks of 4
idx = _HeadTailLoadBalancer(16, 2, "cpu")._generate_indices()[0]
print("rank 0 gets", idx[:8].tolist())
print("rank 1 gets", idx[8:].tolist())
