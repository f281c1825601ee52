import torch

lr, wd = 0.1, 0.1
beta1, beta2, eps = 0.9, 0.999, 1e-8
results = {}
for name, cls, decay in (("Adam", torch.optim.Adam, wd), ("AdamW", torch.optim.AdamW, wd),
                         ("Adam, weight_decay=0", torch.optim.Adam, 0.0)):
    p = torch.tensor([2.0, 2.0], dtype=torch.float64, requires_grad=True)
    opt = cls([p], lr=lr, weight_decay=decay)  # the same settings for the first two
    p.grad = torch.tensor([0.5, -0.5], dtype=torch.float64)
    opt.step()
    results[name] = p.detach().clone()
    print(f"{name} after one step: {p.detach().tolist()}")

# The same step by hand, from the formulas.
p0 = torch.tensor([2.0, 2.0], dtype=torch.float64)
g = torch.tensor([0.5, -0.5], dtype=torch.float64)


def adam_update(grad):
    m = (1 - beta1) * grad  # first moment after one step (it starts at 0)
    v = (1 - beta2) * grad * grad
    m_hat, v_hat = m / (1 - beta1), v / (1 - beta2)  # bias correction
    return lr * m_hat / (v_hat.sqrt() + eps)


adam_l2 = p0 - adam_update(g + wd * p0)  # coupled: wd * p is added to the gradient
adamw = p0 * (1 - lr * wd) - adam_update(g)  # decoupled: p shrinks, grad untouched
print("by hand, Adam (L2 in the gradient):", adam_l2.tolist())
print("by hand, AdamW (decoupled decay):  ", adamw.tolist())
print("match:", torch.allclose(results["Adam"], adam_l2), torch.allclose(results["AdamW"], adamw))
