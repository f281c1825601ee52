#| expect: RuntimeError
import warnings

import torch

warnings.filterwarnings("ignore", message="Anomaly Detection has been enabled")
x = torch.tensor([0.0, 1.0], requires_grad=True)

# 1. An infinite gradient is not an anomaly: only NaN is checked.
with torch.autograd.detect_anomaly():
    torch.sqrt(x).sum().backward()
print("inf gradient, no error: x.grad =", x.grad.tolist())

# 2. Forward outside anomaly mode, backward inside: the op is named, the forward line is not.
x.grad = None
loss = torch.where(x > 0, torch.sqrt(x), torch.zeros_like(x)).sum()
with torch.autograd.detect_anomaly():
    loss.backward()
