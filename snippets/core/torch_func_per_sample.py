import torch
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3))
x = torch.randn(6, 4)
y = torch.randint(0, 3, (6,))
params = {name: p.detach() for name, p in model.named_parameters()}
python_calls = 0


def loss_one(params, xi, yi):
    """The loss of ONE sample, as a function of the parameters: vmap adds the batch."""
    global python_calls
    python_calls += 1
    logits = functional_call(model, params, (xi.unsqueeze(0),))
    return torch.nn.functional.cross_entropy(logits, yi.unsqueeze(0))


# grad differentiates with respect to the first argument (a dict here: grads come back as a dict).
# vmap maps over dim 0 of x and y, and shares params (in_dims=None).
own_params = list(model.parameters())
per_sample = vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)
for name, g in per_sample.items():
    print(f"{name:9s} per-sample grad shape {tuple(g.shape)}")
print("loss_one ran", python_calls, "time(s) in Python for", len(x), "samples")
print("functional_call put the model's own parameters back:",
      all(p is q for p, q in zip(model.parameters(), own_params, strict=True)))

# The same with a Python loop: one forward and backward per sample.
loop = {name: [] for name in params}
for i in range(len(x)):
    model.zero_grad()
    torch.nn.functional.cross_entropy(model(x[i : i + 1]), y[i : i + 1]).backward()
    for name, p in model.named_parameters():
        loop[name].append(p.grad.clone())
equal = all(torch.allclose(per_sample[n], torch.stack(loop[n]), atol=1e-6) for n in params)
print("equal to the loop:", equal)
print("their mean is the batch gradient:", torch.allclose(
    per_sample["0.weight"].mean(0),
    grad(lambda p: torch.nn.functional.cross_entropy(functional_call(model, p, (x,)), y))(params)["0.weight"],
    atol=1e-6,
))
