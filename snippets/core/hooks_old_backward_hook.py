import torch

torch.manual_seed(0)

# The deprecated register_backward_hook hooks the grad_fn of the module's output tensor:
# for a Linear that is the addmm, whose inputs are the bias, x and the weight's transpose.
lin = torch.nn.Linear(3, 2)
x = torch.randn(4, 3, requires_grad=True)


def show(kind):
    def hook(m, grad_input, grad_output):
        print(kind, "grad_input shapes:", [tuple(g.shape) for g in grad_input])

    return hook


lin.register_backward_hook(show("register_backward_hook"))
lin(x).sum().backward()

full = torch.nn.Linear(3, 2)
full.register_full_backward_hook(show("register_full_backward_hook"))
full(x).sum().backward()
