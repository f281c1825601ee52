import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(6, 5).requires_grad_()  # 6 tokens, 5 classes
target = torch.tensor([1, 0, 4, -100, -100, 2])  # two padding positions

loss = F.cross_entropy(logits, target)  # ignore_index=-100 by default
per_token = F.cross_entropy(logits, target, reduction="none")
print("per-token losses:", [round(x, 4) for x in per_token.tolist()])
valid = target != -100
print("sum of per-token losses:     ", round(per_token.sum().item(), 4))
print("mean loss:                   ", round(loss.item(), 4))
print("sum / non-ignored tokens (4):", round((per_token.sum() / valid.sum()).item(), 4))
print("sum / all tokens (6):        ", round(per_token.mean().item(), 4))

by_hand = -F.log_softmax(logits, dim=-1)[valid].gather(1, target[valid, None]).mean()
print("by hand from log_softmax:    ", round(by_hand.item(), 4))
loss.backward()
print("gradient in the ignored rows:", logits.grad[~valid].abs().sum().item())

padding_only = logits.detach()[3:5].requires_grad_()  # a batch whose targets are all -100
empty = F.cross_entropy(padding_only, target[3:5])
empty.backward()
print("every target ignored:", empty.item())
print("  same batch, reduction='sum':", F.cross_entropy(padding_only, target[3:5], reduction="sum").item())
print("  its gradient (sum of |grad|):", padding_only.grad.abs().sum().item())
