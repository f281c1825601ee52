import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = (3 * torch.randn(4, 10)).requires_grad_()
target = torch.randint(0, 10, (4,))

right = F.cross_entropy(logits, target)
right.backward()
g_right = logits.grad.norm().item()
logits.grad = None

probs = logits.softmax(dim=-1)
wrong = F.cross_entropy(probs, target)  # softmax applied twice
wrong.backward()
g_wrong = logits.grad.norm().item()

print(f"cross_entropy(logits):           {right.item():.4f}  grad norm {g_right:.4f}")
print(f"cross_entropy(softmax(logits)):  {wrong.item():.4f}  grad norm {g_wrong:.4f}")
# Inputs squeezed into [0, 1]: the loss stays between log(e + 9) - 1 and log(e + 9).
e = torch.exp(torch.tensor(1.0))
print(f"range with probabilities as inputs: [{(torch.log(e + 9) - 1).item():.4f}, {torch.log(e + 9).item():.4f}]")
print(f"nll_loss(probabilities):         {F.nll_loss(probs, target).item():.4f}  (not a loss: negative)")
print(f"minus the mean target probability: {-probs.gather(1, target[:, None]).mean().item():.4f}")
print(f"nll_loss(log_softmax(logits)):   {F.nll_loss(logits.log_softmax(-1), target).item():.4f}")
