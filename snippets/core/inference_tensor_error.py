#| expect: RuntimeError
import torch

torch.manual_seed(0)

lin = torch.nn.Linear(3, 1)

with torch.no_grad():
    a = torch.ones(2, 3) * 2
with torch.inference_mode():
    b = torch.ones(2, 3) * 2
print("no_grad result:        is_inference =", a.is_inference())
print("inference_mode result: is_inference =", b.is_inference())

lin(a).sum().backward()  # a normal tensor: fine as an input to autograd
print("no_grad tensor used in training: ok")
lin(b.clone()).sum().backward()  # clone() outside inference_mode: a normal tensor
print("clone of inference tensor used in training: ok")
w = torch.ones(3, requires_grad=True)
(w + b).sum().backward()  # an addition saves neither input
print("inference tensor in an addition: ok, w.grad =", w.grad)
lin(b).sum().backward()  # linear must save b for the weight's gradient
