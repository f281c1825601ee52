import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
x, y = torch.randn(10, 4), torch.randn(10, 1)
loss_fn = torch.nn.MSELoss()  # reduction="mean"


def weight_grad():
    return model.weight.grad.clone()


model.zero_grad()
loss_fn(model(x), y).backward()
full = weight_grad()

# 10 samples in micro-batches of 4, 4 and 2: the last one is smaller.
batches = list(zip(x.split(4), y.split(4), strict=True))
print("micro-batch sizes:", [len(xb) for xb, _ in batches])

model.zero_grad()
for xb, yb in batches:
    (loss_fn(model(xb), yb) / len(batches)).backward()
print("divide by number of steps == full batch:", torch.allclose(weight_grad(), full, atol=1e-6))

model.zero_grad()
for xb, yb in batches:
    (loss_fn(model(xb), yb) * len(xb) / len(x)).backward()
print("weight by samples / total == full batch:", torch.allclose(weight_grad(), full, atol=1e-6))
