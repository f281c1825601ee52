"""Bytes per parameter for Adam with mixed precision, per rank: DDP, ZeRO-1, ZeRO-2, ZeRO-3.

Arithmetic only (no activations, buffers, or temporary gathered layers), with the
ZeRO paper's accounting: bf16 parameters (2 B) and gradients (2 B), and an fp32
optimizer state of 12 B (master copy 4, exp_avg 4, exp_avg_sq 4).
"""
PARAMS = 7_000_000_000  # a 7B model
RANKS = 8
WEIGHTS, GRADS, OPTIM = 2, 2, 12  # bytes per parameter

stages = {
    "DDP (nothing sharded)": WEIGHTS + GRADS + OPTIM,
    "ZeRO-1 (optimizer state)": WEIGHTS + GRADS + OPTIM / RANKS,
    "ZeRO-2 (+ gradients)": WEIGHTS + (GRADS + OPTIM) / RANKS,
    "ZeRO-3 / FSDP (+ parameters)": (WEIGHTS + GRADS + OPTIM) / RANKS,
}
print(f"{PARAMS / 1e9:.0f}B parameters, {RANKS} ranks, Adam, bf16 compute, fp32 state")
for name, per_param in stages.items():
    print(f"{name:30} {per_param:6.2f} B/param  {per_param * PARAMS / 2**30:7.1f} GiB per rank")

# FSDP2 with MixedPrecisionPolicy(param_dtype=bf16) keeps the sharded parameter in fp32
# (it is the master copy), the sharded gradient in fp32, and Adam's two fp32 moments:
fsdp2 = (4 + 4 + 8) / RANKS
print(f"{'FSDP2 sharded state (fp32)':30} {fsdp2:6.2f} B/param  {fsdp2 * PARAMS / 2**30:7.1f} GiB per rank")
