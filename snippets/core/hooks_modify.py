import torch

torch.manual_seed(0)

lin = torch.nn.Linear(3, 2)
x = torch.randn(4, 3, requires_grad=True)
lin(x).sum().backward()
plain_x_grad = x.grad.clone()
plain_weight_grad, plain_bias_grad = lin.weight.grad.clone(), lin.bias.grad.clone()
x.grad = None
lin.zero_grad()

# A forward pre-hook may return new positional args; a forward hook may return a new output.
h1 = lin.register_forward_pre_hook(lambda m, args: (args[0] * 2,))
h2 = lin.register_forward_hook(lambda m, args, out: out + 100)
# A tensor hook may return a new gradient: it replaces the gradient from there on.
h3 = lin.weight.register_hook(torch.zeros_like)
# A full backward hook may return a new grad_input (one entry per positional input).
h4 = lin.register_full_backward_hook(lambda m, gin, gout: (gin[0] * 10,))

out = lin(x)
print("output replaced:", torch.allclose(out, lin.forward(x * 2) + 100))
out.sum().backward()
print("weight.grad zeroed by the tensor hook:", torch.equal(lin.weight.grad, torch.zeros(2, 3)))
print("bias.grad untouched:", torch.allclose(lin.bias.grad, plain_bias_grad))
# x's gradient: times 2 from the pre-hook's x * 2, times 10 from the backward hook.
print("x.grad is 20x the plain one:", torch.allclose(x.grad, plain_x_grad * 20))

for handle in (h1, h2, h3, h4):
    handle.remove()
x.grad = None
lin.zero_grad()
lin(x).sum().backward()
as_plain = torch.allclose(x.grad, plain_x_grad) and torch.allclose(lin.weight.grad, plain_weight_grad)
print("after remove, grads as plain:", as_plain)
