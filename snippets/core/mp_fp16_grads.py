#| expect: ValueError
import torch

torch.manual_seed(0)
model = torch.nn.Linear(4, 1).half()  # the parameters themselves in fp16
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu")
loss = model(torch.randn(8, 4, dtype=torch.float16)).float().pow(2).mean()
scaler.scale(loss).backward()
print("grad dtype:", model.weight.grad.dtype)
scaler.step(opt)
