import torch

torch.manual_seed(0)

net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Tanh())
lin = net[0]


def shapes(grads):
    return [None if g is None else tuple(g.shape) for g in grads]


handles = [
    lin.register_forward_pre_hook(lambda m, args: print("forward pre-hook   input", shapes(args))),
    lin.register_forward_hook(lambda m, args, out: print("forward hook       output", tuple(out.shape))),
    lin.register_full_backward_pre_hook(
        lambda m, gout: print("backward pre-hook  grad_output", shapes(gout))
    ),
    lin.register_full_backward_hook(
        lambda m, gin, gout: print("full backward hook grad_input", shapes(gin), "grad_output", shapes(gout))
    ),
    lin.weight.register_hook(lambda g: print("tensor hook        weight grad", tuple(g.shape))),
    lin.weight.register_post_accumulate_grad_hook(
        lambda p: print("post-accumulate    weight.grad set:", p.grad is not None)
    ),
]
x = torch.randn(4, 3, requires_grad=True)
handles.append(x.register_hook(lambda g: print("tensor hook        x grad", tuple(g.shape))))

print("-- forward")
out = net(x)
handles.append(out.register_hook(lambda g: print("tensor hook        net output grad", tuple(g.shape))))
print("-- backward")
out.sum().backward()

for handle in handles:
    handle.remove()
print("-- forward and backward again, after handle.remove()")
net(x).sum().backward()
print("-- done: no hook ran")
