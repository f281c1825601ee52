#| expect: RuntimeError
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

torch.manual_seed(0)
q, k, v = (torch.randn(1, 2, 8, 16) for _ in range(3))

# Flash alone is enough for a plain call on CPU...
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    print("FLASH only, plain call:", tuple(F.scaled_dot_product_attention(q, k, v).shape))
# ...but not with dropout, which only the math backend takes on CPU.
try:
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        F.scaled_dot_product_attention(q, k, v, dropout_p=0.1)
except RuntimeError as e:
    print("FLASH only, dropout_p=0.1:", type(e).__name__)

# On CPU, allowing only EFFICIENT_ATTENTION leaves no backend that can run.
with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
    F.scaled_dot_product_attention(q, k, v)
