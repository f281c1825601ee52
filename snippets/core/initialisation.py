import math

import torch
from torch import nn

torch.manual_seed(0)


def report(name, w, fan_in):
    bound = 1 / math.sqrt(fan_in)  # kaiming_uniform_(a=sqrt(5)) gives U(-bound, bound)
    print(f"{name}: fan_in {fan_in}")
    print(f"  weight std {w.std().item():.4f}  formula 1/sqrt(3*fan_in) {bound / math.sqrt(3):.4f}")
    print(f"  weight max |w| {w.abs().max().item():.4f}  bound 1/sqrt(fan_in) {bound:.4f}")


lin = nn.Linear(256, 512)
report("Linear(256, 512)", lin.weight, 256)
print(f"  bias max |b| {lin.bias.abs().max().item():.4f}")

conv = nn.Conv2d(64, 128, kernel_size=3)
report("Conv2d(64, 128, 3)", conv.weight, 64 * 3 * 3)  # fan_in counts the kernel too

emb = nn.Embedding(1000, 64, padding_idx=0)
w = emb.weight[1:]
print("Embedding(1000, 64, padding_idx=0):")
print(f"  weight mean {w.mean().item():.3f}  std {w.std().item():.3f}")
print("  padding row all zero:", bool((emb.weight[0] == 0).all()))

# What He (Kaiming) init for ReLU would give instead
print(f"He init for ReLU, fan_in 256: std sqrt(2/fan_in) {math.sqrt(2 / 256):.4f}")

# fan_in is read from the weight's shape: weight.size(1) times the kernel's sizes. That is input
# channels per group for a convolution, output channels per group for a transposed one.
for name, m in [("Conv2d(64, 64, 3, groups=64)", nn.Conv2d(64, 64, 3, groups=64)),
                ("ConvTranspose2d(64, 128, 3)", nn.ConvTranspose2d(64, 128, 3))]:
    report(f"{name} weight {tuple(m.weight.shape)}", m.weight, m.weight.shape[1] * 3 * 3)
