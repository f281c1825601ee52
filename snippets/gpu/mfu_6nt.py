import torch
from torch.utils.flop_counter import FlopCounterMode

torch.manual_seed(0)

# A bias-free MLP block on the meta device: shapes only, no memory, no real compute.
d, hidden, tokens = 512, 2048, 8 * 128                   # batch 8, sequence 128
model = torch.nn.Sequential(torch.nn.Linear(d, hidden, bias=False), torch.nn.GELU(),
                            torch.nn.Linear(hidden, d, bias=False)).to("meta")
n_params = sum(p.numel() for p in model.parameters())
x = torch.empty(tokens, d, device="meta")

with FlopCounterMode(display=False) as fwd:
    out = model(x)
with FlopCounterMode(display=False) as bwd:
    out.sum().backward()
f, b = fwd.get_total_flops(), bwd.get_total_flops()
print(f"N = {n_params:,d} parameters, {tokens:,d} tokens")
print(f"forward  {f:>13,d} = {f / (n_params * tokens):.2f} * N * tokens")
print(f"backward {b:>13,d} = {b / (n_params * tokens):.2f} * N * tokens")
print(f"step     {f + b:>13,d} = {(f + b) / (n_params * tokens):.2f} * N * tokens")

# The first layer's input needed no gradient above. If it does (a layer deep in a network):
x.requires_grad_(True)
with FlopCounterMode(display=False) as both:
    model(x).sum().backward()
print(f"input needs grad: step = {both.get_total_flops() / (n_params * tokens):.2f} * N * tokens")

# Activation checkpointing recomputes forward work in backward: the hardware does more than 6N.
from torch.utils.checkpoint import checkpoint, set_checkpoint_early_stop
for early_stop in (True, False):                         # True is the default
    with set_checkpoint_early_stop(early_stop), FlopCounterMode(display=False) as ck:
        checkpoint(model, x, use_reentrant=False).sum().backward()
    print(f"checkpointed, early_stop={early_stop}: step = {ck.get_total_flops() / (n_params * tokens):.2f} * N * tokens")

# MFU = achieved model FLOP/s / peak FLOP/s. EXAMPLE numbers, not a measured run or GPU:
N, tokens_per_s, peak = 7e9, 3000, 1000e12               # 7B model, tokens/s per GPU, bf16 peak
achieved = 6 * N * tokens_per_s
print(f"example: 6 * 7e9 * 3000 = {achieved / 1e12:.0f} TFLOP/s, MFU = {achieved / peak:.1%}")
print(f"example: fp32 gradient bytes DDP all-reduces each step: {4 * N / 1e9:.0f} GB")
