import torch

torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

model(torch.randn(3, 2)).sum().backward()
opt.zero_grad()  # set_to_none=True is the default
print("zero_grad():", model.weight.grad)

model(torch.randn(3, 2)).sum().backward()
opt.zero_grad(set_to_none=False)
print("zero_grad(set_to_none=False):", model.weight.grad)
