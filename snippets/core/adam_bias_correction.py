import torch

# One Adam step on three parameters whose gradients differ by six orders of magnitude.
p = torch.zeros(3, dtype=torch.float64, requires_grad=True)
opt = torch.optim.Adam([p], lr=0.01)
p.grad = torch.tensor([1e-3, 1.0, 1e3], dtype=torch.float64)
opt.step()
print("step taken per parameter:", [round(x, 6) for x in (-p.detach()).tolist()])

# Without bias correction, m = 0.1 g and v = 0.001 g^2 after the first step:
g = torch.tensor([1e-3, 1.0, 1e3], dtype=torch.float64)
m, v = 0.1 * g, 0.001 * g * g
print("uncorrected first step would be:", [round(x, 6) for x in (0.01 * m / (v.sqrt() + 1e-8)).tolist()])
