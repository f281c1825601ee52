import torch
from torch.nn.utils import clip_grad_norm_

torch.manual_seed(0)
model = torch.nn.Linear(16, 1)


def grads_from(loss_scale):
    model.zero_grad()
    (model(torch.randn(8, 16)).pow(2).mean() * loss_scale).backward()


def norm_now():
    return torch.linalg.vector_norm(torch.stack([p.grad.norm() for p in model.parameters()])).item()


grads_from(loss_scale=100.0)  # an exploding step
before = norm_now()
returned = clip_grad_norm_(model.parameters(), max_norm=1.0)
print(f"norm before {before:.4f} | clip_grad_norm_ returned {returned.item():.4f} | norm after {norm_now():.4f}")

grads_from(loss_scale=0.01)  # a small step: below max_norm, nothing changes
before = norm_now()
returned = clip_grad_norm_(model.parameters(), max_norm=1.0)
print(f"norm before {before:.4f} | clip_grad_norm_ returned {returned.item():.4f} | norm after {norm_now():.4f}")

grads_from(loss_scale=1.0)
model.bias.grad[0] = float("nan")  # one NaN in one gradient
returned = clip_grad_norm_(model.parameters(), max_norm=1.0)
print(f"one NaN, default: returned {returned.item()} | finite weight grads left:"
      f" {model.weight.grad.isfinite().sum().item()} of {model.weight.grad.numel()}")

grads_from(loss_scale=1.0)
model.bias.grad[0] = float("inf")  # one inf instead
returned = clip_grad_norm_(model.parameters(), max_norm=1.0)
print(f"one inf, default: returned {returned.item()} | weight grads all zero:"
      f" {(model.weight.grad == 0).all().item()} | bias grad {model.bias.grad.tolist()}")

grads_from(loss_scale=1.0)
model.bias.grad[0] = float("inf")
try:
    clip_grad_norm_(model.parameters(), max_norm=1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("error_if_nonfinite=True:", e)
