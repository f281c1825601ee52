#| expect: RuntimeError
import torch

b = torch.backends
print("defaults:")
print("  float32_matmul_precision   ", torch.get_float32_matmul_precision())
print("  cuda.matmul.allow_tf32     ", b.cuda.matmul.allow_tf32)
print("  cuda.matmul.fp32_precision ", b.cuda.matmul.fp32_precision)
print("  cudnn.allow_tf32           ", b.cudnn.allow_tf32)
print("  cudnn.conv.fp32_precision  ", b.cudnn.conv.fp32_precision)

torch.set_float32_matmul_precision("high")
print("after set_float32_matmul_precision('high'):")
print("  cuda.matmul.allow_tf32     ", b.cuda.matmul.allow_tf32)
print("  cuda.matmul.fp32_precision ", b.cuda.matmul.fp32_precision)

b.cuda.matmul.allow_tf32 = False  # the legacy flag, on top of the new setting
print("after cuda.matmul.allow_tf32 = False:")
print("  cuda.matmul.fp32_precision ", b.cuda.matmul.fp32_precision)
print("  float32_matmul_precision   ", torch.get_float32_matmul_precision())
