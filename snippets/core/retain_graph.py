import torch

w = torch.tensor([2.0, 3.0], requires_grad=True)
loss = (w * w).sum()

loss.backward(retain_graph=True)  # keep the saved tensors
print("after first backward: ", w.grad)
loss.backward()                   # works, and adds to .grad
print("after second backward:", w.grad)

# A graph that saves nothing can be walked twice without retain_graph.
v = torch.tensor([1.0, 1.0], requires_grad=True)
s = (v + 1).sum()  # add and sum save no tensors
s.backward()
s.backward()
print("add-only graph, two backwards:", v.grad)
