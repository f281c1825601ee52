import warnings

import torch

warnings.filterwarnings("ignore", message="Full backward hook is firing")  # the first Linear's input needs no grad
torch.manual_seed(0)


class SafeSqrt(torch.nn.Module):
    def forward(self, x):  # the forward never outputs NaN: negatives are replaced by 0
        return torch.where(x > 0, torch.sqrt(x), torch.zeros_like(x))


model = torch.nn.Sequential(
    torch.nn.Linear(4, 8), SafeSqrt(), torch.nn.Linear(8, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1)
)
seen = []  # (module, grad w.r.t. output finite, grad w.r.t. input finite), in the order backward runs


def all_finite(grads):
    return all(g.isfinite().all().item() for g in grads if g is not None)


for i, m in enumerate(model):
    m.register_full_backward_hook(
        lambda m, g_in, g_out, i=i: seen.append((f"{i}: {type(m).__name__}", all_finite(g_out), all_finite(g_in)))
    )

loss = model(torch.randn(16, 4)).pow(2).mean()
# Six significant digits: the seventh depends on the CPU (its vector width orders the sums).
print("loss:", f"{loss.item():.6g}")
loss.backward()
for name, out_ok, in_ok in seen:
    print(f"  {name:12} grad w.r.t. output finite: {out_ok!s:5}  grad w.r.t. input finite: {in_ok}")
print("parameters with a non-finite grad:",
      [n for n, p in model.named_parameters() if not p.grad.isfinite().all()])
