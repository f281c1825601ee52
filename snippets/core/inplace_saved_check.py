#| expect: RuntimeError
import torch

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
y = x.sigmoid()
node = y.grad_fn                      # SigmoidBackward0, which saved y
print(type(node).__name__, "saved result:", node._saved_result)

y.mul_(2)                             # y is now at version 1
print("y._version:", y._version, "| y.grad_fn now:", type(y.grad_fn).__name__)
print(node._saved_result)             # unpacking the saved tensor checks its version
