import torch
import torch.nn as nn
from torch.utils.flop_counter import FlopCounterMode

# Meta tensors have shapes and dtypes but no data: FlopCounterMode counts the matmuls
# without computing them, so the full-size layers cost nothing to build.
dev, dt = "meta", torch.bfloat16
lin = nn.Linear(4096, 4096, bias=False, device=dev, dtype=dt)
w_bytes = lin.weight.nbytes
print("4096 x 4096 bf16 weight:", w_bytes, "bytes")
for T in (1, 512):
    x = torch.empty(T, 4096, device=dev, dtype=dt)
    with FlopCounterMode(display=False) as fc:
        y = lin(x)
    flops = fc.get_total_flops()
    io = w_bytes + x.nbytes + y.nbytes  # read weight and input, write output
    print(f"{T:3} token(s): {flops} FLOPs, {flops / w_bytes:.4f} FLOP per weight byte,",
          f"{flops / io:.4f} FLOP per byte moved (weight + input + output)")

# One decoder layer's linears (embedding, LM head, norms and attention scores left out): 32 query heads and 8 KV heads of 128, MLP width 14336.
D, Hq, Hkv, Dh, F, layers = 4096, 32, 8, 128, 14336, 32
shapes = {"q": (D, Hq * Dh), "k": (D, Hkv * Dh), "v": (D, Hkv * Dh), "o": (Hq * Dh, D),
          "gate": (D, F), "up": (D, F), "down": (F, D)}
layer = nn.ModuleDict({n: nn.Linear(i, o, bias=False, device=dev, dtype=dt) for n, (i, o) in shapes.items()})
layer_bytes = sum(p.nbytes for p in layer.parameters())
with FlopCounterMode(display=False) as fc:
    for m in layer.values():  # one token through each linear
        m(torch.empty(1, m.in_features, device=dev, dtype=dt))
step_flops = fc.get_total_flops() * layers
weights = layer_bytes * layers
print(f"{layers} layers: weights {weights / 2**30:.2f} GiB, linear FLOPs per token {step_flops}")
for batch, ctx in [(1, 4096), (8, 4096)]:
    cache = 2 * layers * Hkv * Dh * 2 * ctx * batch  # bytes of k and v already cached, bf16
    read = weights + cache
    print(f"decode step, batch {batch}, context {ctx}: reads {read / 2**30:.2f} GiB"
          f" (KV cache {cache / 2**30:.2f} GiB), {batch * step_flops / read:.2f} linear FLOP per byte")
print(f"prefill of 512 tokens, batch 1: {512 * step_flops / weights:.1f} FLOP per weight byte")
