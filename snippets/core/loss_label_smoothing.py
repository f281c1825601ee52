import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(6, 5)
target = torch.tensor([1, 0, 4, -100, -100, 2])
eps, C = 0.1, 5

smoothed = F.cross_entropy(logits, target, label_smoothing=eps)
valid = target != -100
logp = F.log_softmax(logits[valid], dim=-1)
nll = -logp.gather(1, target[valid, None]).squeeze(1)  # the usual loss per token
uniform = -logp.mean(dim=-1)  # cross entropy against the uniform distribution
by_hand = ((1 - eps) * nll + eps * uniform).mean()
print("label_smoothing=0.1:", round(smoothed.item(), 4), "| by hand:", round(by_hand.item(), 4))

# The smoothed loss cannot reach 0: a near one-hot prediction is penalized.
confident = torch.tensor([[20.0, 0.0, 0.0, 0.0, 0.0]])
t0 = torch.tensor([0])
print("confident and right, no smoothing:  ", round(F.cross_entropy(confident, t0).item(), 4))
print("confident and right, smoothing 0.1: ", round(F.cross_entropy(confident, t0, label_smoothing=eps).item(), 4))
print("  mean over the 5 classes of -log p:", round((-F.log_softmax(confident, dim=-1)).mean().item(), 4))
moderate = torch.tensor([[4.0, 0.0, 0.0, 0.0, 0.0]])
print("logit 4 instead of 20, smoothing 0.1:", round(F.cross_entropy(moderate, t0, label_smoothing=eps).item(), 4))
for ls in (0.0, eps):
    x = confident.clone().requires_grad_()
    F.cross_entropy(x, t0, label_smoothing=ls).backward()
    print(f"gradient on the logit 20, smoothing {ls}: {x.grad[0, 0].item():.4f}")
