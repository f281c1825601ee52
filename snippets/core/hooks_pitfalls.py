import torch

torch.manual_seed(0)

lin = torch.nn.Linear(3, 2)
x = torch.randn(4, 3, requires_grad=True)
calls = []
lin.register_forward_hook(lambda m, args, out: calls.append("forward hook"))

# 1. Hooks run from module(x) (Module.__call__), not from module.forward(x).
lin.forward(x)
print("after lin.forward(x):", calls)
lin(x)
print("after lin(x):        ", calls)

# 2. Registering again adds a second hook; nothing de-duplicates it.
calls.clear()
lin.register_forward_hook(lambda m, args, out: calls.append("forward hook"))
lin(x)
print("after a second registration:", calls)

# 3. A full backward hook is wired into the graph during forward:
#    one registered after the forward does not run for that graph.
fired = []
out = lin(x)
handle = lin.register_full_backward_hook(lambda m, gin, gout: fired.append("full backward hook"))
out.sum().backward()
print("registered after forward:", fired)
lin(x).sum().backward()
print("next forward and backward:", fired)
handle.remove()

# 4. When no input requires grad, the full backward hook fires on the output's gradient,
#    with None for grad_input (and torch warns).
seen = []
handle = lin.register_full_backward_hook(
    lambda m, gin, gout: seen.append((gin, [tuple(g.shape) for g in gout]))
)
lin(torch.randn(4, 3)).sum().backward()
print("input without grad: (grad_input, grad_output shapes) =", seen)
handle.remove()

# 5. When no output of the module requires grad, the full backward hook does not fire at all.
fired = []
frozen = torch.nn.Linear(3, 2).requires_grad_(False)
handle = frozen.register_full_backward_hook(lambda m, gin, gout: fired.append("full backward hook"))
scale = torch.ones(2, requires_grad=True)
out = frozen(torch.randn(4, 3))
(out * scale).sum().backward()
print("output without grad: requires_grad", out.requires_grad, "hook calls", fired)
handle.remove()
