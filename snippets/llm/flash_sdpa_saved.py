import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

torch.manual_seed(0)
B, H, L, D = 1, 2, 8, 4
q, k, v = (torch.randn(B, H, L, D, requires_grad=True) for _ in range(3))


def saved(fn):
    return {name[len("_saved_"):]: tuple(getattr(fn, name).shape)
            for name in dir(fn)
            if name.startswith("_saved_") and torch.is_tensor(getattr(fn, name))}


out = F.scaled_dot_product_attention(q, k, v)
fn = out.grad_fn
print("default CPU kernel:", fn.name())
print("saved tensors:", saved(fn))
scores = (q @ k.transpose(-2, -1)) * D ** -0.5
lse = fn._saved_logsumexp
print("saved logsumexp == logsumexp(scores, -1):",
      torch.allclose(lse, torch.logsumexp(scores, -1), atol=1e-5))
# backward rebuilds each probability from q, k and the saved row statistic
p_rebuilt = torch.exp(scores - lse.unsqueeze(-1))
print("exp(scores - lse) == softmax(scores):", torch.allclose(p_rebuilt, scores.softmax(-1), atol=1e-6))

out.sum().backward()
flash_grads = [t.grad.clone() for t in (q, k, v)]
for t in (q, k, v):
    t.grad = None

with sdpa_kernel(SDPBackend.MATH):
    out_m = F.scaled_dot_product_attention(q, k, v)
# walk the math graph and list every saved tensor shaped like a score matrix
stack, seen, square = [out_m.grad_fn], set(), []
while stack:
    f = stack.pop()
    if f is None or f in seen:
        continue
    seen.add(f)
    square += [(f.name(), name, shape) for name, shape in saved(f).items() if shape[-2:] == (L, L)]
    stack += [g for g, _ in f.next_functions]
print("math backend saves (L, L) tensors:", sorted(square))
out_m.sum().backward()
print("same grads as math backend:",
      all(torch.allclose(a, t.grad, atol=1e-5) for a, t in zip(flash_grads, (q, k, v))))
