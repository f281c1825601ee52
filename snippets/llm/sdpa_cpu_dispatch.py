import threading

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.utils._python_dispatch import TorchDispatchMode


class OpLog(TorchDispatchMode):  # the ATen ops that reach the dispatcher
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(func.__name__)
        return func(*args, **(kwargs or {}))


def ran(**kw):
    log = OpLog()
    log.ops = []
    with log:
        out = F.scaled_dot_product_attention(q, k, v if "v" not in kw else kw.pop("v"), **kw)
    fused = [o for o in log.ops if "scaled_dot_product" in o]
    return out, fused[0] if fused else f"math, decomposed: {log.ops.count('bmm.default')} bmm"


torch.manual_seed(0)
q, k, v = (torch.randn(1, 2, 8, 16) for _ in range(3))
print("backends:", list(SDPBackend.__members__))
print("priority order:", [SDPBackend(i).name for i in torch._C._get_sdp_priority_order()])
out_default, op = ran()
print("default:              ", op)
print("is_causal=True:       ", ran(is_causal=True)[1])
print("bool attn_mask:       ", ran(attn_mask=torch.ones(8, 8, dtype=torch.bool).tril())[1])
print("dropout_p=0.1:        ", ran(dropout_p=0.1)[1])
print("value head dim 8 != 16:", ran(v=v[..., :8])[1])
with sdpa_kernel(SDPBackend.MATH):
    out_math, op = ran()
    print("sdpa_kernel(MATH):    ", op, "| flash flag:", torch.backends.cuda.flash_sdp_enabled())
    seen = []
    t = threading.Thread(target=lambda: seen.append(torch.backends.cuda.flash_sdp_enabled()))
    t.start()
    t.join()
    print("flash flag read from another thread inside the block:", seen[0])
print("after the block, flash flag:", torch.backends.cuda.flash_sdp_enabled())
print("MATH and default outputs within 1e-6:", (out_math - out_default).abs().max().item() < 1e-6)
with sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]):  # forbid flash
    print("flash forbidden:      ", ran()[1])
