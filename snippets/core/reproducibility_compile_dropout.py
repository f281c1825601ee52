#| timeout: 240
import torch

torch.manual_seed(0)
x = torch.ones(4, 8)


def f(x):
    return torch.nn.functional.dropout(x, p=0.5, training=True)


def mask(fn):
    torch.manual_seed(0)
    return fn(x) != 0


eager = mask(f)
compiled = torch.compile(f)  # Inductor: the point is its random-number code
fallback = torch.compile(f, options={"fallback_random": True})
print("default fallback_random:", torch._inductor.config.fallback_random)
print("kept in eager:", eager.sum().item(), "of", eager.numel())
print("compiled, same seed twice, same mask:", torch.equal(mask(compiled), mask(compiled)))
print("compiled mask == eager mask:", torch.equal(mask(compiled), eager))
print("fallback_random=True mask == eager mask:", torch.equal(mask(fallback), eager))
