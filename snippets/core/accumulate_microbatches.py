import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
x, y = torch.randn(16, 4), torch.randn(16, 1)
loss_fn = torch.nn.MSELoss()  # reduction="mean"


def grads():
    return [p.grad.clone() for p in model.parameters()]


def same(a, b):
    return all(torch.allclose(g, h, atol=1e-6) for g, h in zip(a, b, strict=True))


# The reference: one backward over the full batch of 16.
model.zero_grad()
loss_fn(model(x), y).backward()
full = grads()

# 4 micro-batches of 4, each loss divided by the number of steps.
steps = 4
model.zero_grad()
for xb, yb in zip(x.chunk(steps), y.chunk(steps), strict=True):
    (loss_fn(model(xb), yb) / steps).backward()
accumulated = grads()
print("mean loss / steps == full batch:", same(accumulated, full))
print("  bit-identical (weight, bias):",
      [torch.equal(g, h) for g, h in zip(accumulated, full, strict=True)])

# Forgetting the division: every gradient is 4 times too large.
model.zero_grad()
for xb, yb in zip(x.chunk(steps), y.chunk(steps), strict=True):
    loss_fn(model(xb), yb).backward()
print("mean loss, no division == full batch:", same(grads(), full))
print("  ratio of weight grads:", (grads()[0] / full[0]).flatten())

# With reduction="sum" the micro-batch losses already add up to the full one.
sum_fn = torch.nn.MSELoss(reduction="sum")
model.zero_grad()
sum_fn(model(x), y).backward()
full_sum = grads()
model.zero_grad()
for xb, yb in zip(x.chunk(steps), y.chunk(steps), strict=True):
    sum_fn(model(xb), yb).backward()
print("sum loss, no division == full sum batch:", same(grads(), full_sum))
