import torch
import torch.nn as nn

torch.manual_seed(0)


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r: int, alpha: float):
        super().__init__()
        self.base = base.requires_grad_(False)                    # frozen pretrained weight
        self.A = nn.Parameter(torch.randn(r, base.in_features) / r)  # random
        self.B = nn.Parameter(torch.zeros(base.out_features, r))   # zero: no change at init
        self.scaling = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.A.T @ self.B.T) * self.scaling


d, r = 1024, 8
base = nn.Linear(d, d)
lora = LoRALinear(base, r=r, alpha=16)
x = torch.randn(4, d)
print("output == base output at init:", torch.equal(lora(x), base(x)))

def count(params):
    return sum(p.numel() for p in params)

print("full fine-tune trainable:", count(base.parameters()))
print("LoRA trainable:          ", count(p for p in lora.parameters() if p.requires_grad),
      f"({100 * count([lora.A, lora.B]) / count(base.parameters()):.2f}%)")

# Train LoRA a few steps; the frozen weight gets no gradient and no optimizer state.
opt = torch.optim.AdamW([p for p in lora.parameters() if p.requires_grad], lr=1e-2)
target = torch.randn(4, d)
for _ in range(3):
    opt.zero_grad()
    nn.functional.mse_loss(lora(x), target).backward()
    opt.step()
print("base.weight.grad:", base.weight.grad)
full = nn.Linear(d, d)                                            # full fine-tune, for comparison
full_opt = torch.optim.AdamW(full.parameters(), lr=1e-2)
nn.functional.mse_loss(full(x), target).backward()
full_opt.step()

def state_elements(o):                                            # exp_avg + exp_avg_sq
    return sum(t.numel() for s in o.state.values() for t in s.values() if t.dim() > 0)

print("AdamW state elements  LoRA:", state_elements(opt), " full:", state_elements(full_opt))

delta = lora.scaling * lora.B @ lora.A
print("rank of the update:", torch.linalg.matrix_rank(delta).item())

# Merge: W' = W + (alpha / r) B A. One Linear, no extra matmuls at inference.
merged = nn.Linear(d, d)
with torch.no_grad():
    merged.weight.copy_(base.weight + delta)
    merged.bias.copy_(base.bias)
    print("merged == unmerged (allclose, atol=1e-5):",
          torch.allclose(merged(x), lora(x), atol=1e-5))
