import torch

torch.manual_seed(0)
n_experts, tokens = 4, 16


def switch_loss(logits):
    """Switch Transformer auxiliary loss: N * sum_i f_i * P_i (top-1 routing)."""
    probs = logits.softmax(dim=-1)
    top1 = probs.argmax(dim=-1)
    f = torch.bincount(top1, minlength=n_experts).float() / len(top1)  # fraction routed: a count, no gradient
    P = probs.mean(dim=0)                                               # mean router probability: has a gradient
    return n_experts * (f * P).sum(), f


def show(name, logits):
    logits = logits.clone().requires_grad_()
    loss, f = switch_loss(logits)
    loss.backward()
    mean_grad = logits.grad.mean(dim=0)  # d loss / d logit of each expert, averaged over tokens
    print(f"{name:<9} fraction per expert {f.tolist()}  loss {loss.item():.3f}"
          f"  mean grad per expert logit {[round(g, 4) for g in mean_grad.tolist()]}")


balanced = torch.nn.functional.one_hot(torch.arange(tokens) % n_experts, n_experts).float() * 2.0
show("balanced", balanced)  # each expert wins 4 of 16 tokens
show("random", torch.randn(tokens, n_experts))
skew = balanced.clone()
skew[:12, 0] += 3.0  # expert 0 wins 13 of 16 tokens
show("skewed", skew)
collapsed = torch.zeros(tokens, n_experts)
collapsed[:, 0] = 8.0  # every token to expert 0, with near-certain probability
show("collapsed", collapsed)
print("upper bound N =", n_experts)
