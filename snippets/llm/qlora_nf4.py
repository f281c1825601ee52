#| devices: cpu
import logging

# Quiet two import-time messages: torchao's CUDA-only kernels that a CPU torch cannot load, and
# torch's deprecation warning about torchao registering an Enum as a pytree constant.
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)

import torch
import torchao
from torchao.quantization.quantize_.workflows.nf4.nf4_tensor import linear_nf4, to_nf4

torch.manual_seed(0)
print("torchao", torchao.__version__)
d, r, alpha = 256, 8, 16
w = torch.randn(d, d, dtype=torch.bfloat16)          # the pretrained weight
w4 = to_nf4(w)                                        # block_size=64, scaler_block_size=256
print(type(w4).__name__, "reports dtype", w4.dtype, "shape", tuple(w4.shape))
inner = {n: getattr(w4, n) for n in
         ["quantized_data", "quantized_scalers", "quantization_factor", "scaler_mean", "nf4"]}
for n, t in inner.items():
    print(f"  {n:20s} {str(t.dtype):15s} {tuple(t.shape)}")
nbytes = sum(t.numel() * t.element_size() for t in inner.values())
print("bytes  bf16:", w.numel() * w.element_size(), " nf4:", nbytes,
      f" bits/weight: {8 * nbytes / w.numel():.2f}")
err = (w4.get_original_weight().float() - w.float()).abs()
print("dequantised vs bf16, mean abs error:", round(err.mean().item(), 3))

# QLoRA forward: frozen 4-bit base (dequantised to bf16 for the matmul) + bf16 LoRA.
A = torch.nn.Parameter((torch.randn(r, d) / r).to(torch.bfloat16))
B = torch.nn.Parameter(torch.zeros(d, r, dtype=torch.bfloat16))
x = torch.randn(3, d, dtype=torch.bfloat16)
print("linear_nf4 == bf16 linear with the dequantised weight:",
      torch.equal(linear_nf4(x, w4), torch.nn.functional.linear(x, w4.get_original_weight())))
y = linear_nf4(x, w4) + (x @ A.T @ B.T) * (alpha / r)
print("output dtype", y.dtype, " equals base at init:", torch.equal(y, linear_nf4(x, w4)))
y.float().pow(2).mean().backward()
print("B.grad nonzero:", B.grad.any().item(), " A.grad all zero (B is zero):", not A.grad.any().item(),
      " NF4 weight requires_grad:", w4.requires_grad)
