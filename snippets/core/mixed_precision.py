#| devices: cpu
import torch
import torch.nn.functional as F

torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.LayerNorm(16), torch.nn.Linear(16, 4)
)
x = torch.randn(32, 8)
target = torch.randint(0, 4, (32,))

print("autocast dtype on cpu by default:", torch.get_autocast_dtype("cpu"))
with torch.autocast("cpu", dtype=torch.bfloat16):
    h = model[0](x)  # Linear
    print("Linear output:      ", h.dtype)
    h = model[1](h)  # ReLU: no autocast rule, runs in its input's dtype
    print("ReLU output:        ", h.dtype)
    h = model[2](h)  # LayerNorm
    print("LayerNorm output:   ", h.dtype)
    logits = model[3](h)
    print("softmax output:     ", logits.softmax(-1).dtype)
    print("x + x (fp32 inputs):", (x + x).dtype)
    loss = F.cross_entropy(logits, target)
    print("cross_entropy loss: ", loss.dtype)
    print("mse_loss:           ", F.mse_loss(logits, torch.zeros(32, 4)).dtype)
loss.backward()
print("weight dtype:", model[0].weight.dtype, "| grad dtype:", model[0].weight.grad.dtype)
