import torch

torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
x = torch.randn(16, 3, requires_grad=True)


def weight_grad(create_graph):
    """Gradient of loss + gradient penalty with respect to the first layer's weight."""
    net.zero_grad()
    out = net(x).sum()
    (gx,) = torch.autograd.grad(out, x, create_graph=create_graph, retain_graph=True)
    penalty = (gx.norm(dim=1) - 1).pow(2).mean()
    print(f"  create_graph={create_graph}: penalty requires grad: {penalty.requires_grad}")
    (out + penalty).backward()
    return net[0].weight.grad.clone()


def weight_grad_without_penalty():
    net.zero_grad()
    net(x).sum().backward()
    return net[0].weight.grad.clone()


with_graph = weight_grad(True)
without_graph = weight_grad(False)
plain = weight_grad_without_penalty()
print("create_graph=True:  penalty reaches the weights:", not torch.allclose(with_graph, plain))
print("create_graph=False: grads equal no penalty at all:", torch.allclose(without_graph, plain))

# A ReLU network is piecewise linear in its input: its Hessian there is zero.
relu_net = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
h = torch.func.hessian(lambda t: relu_net(t).sum())(torch.randn(3))
print("ReLU net, Hessian wrt input is all zeros:", torch.equal(h, torch.zeros(3, 3)))

# In its weights it is not: the output multiplies the two layers' weights (cross terms),
# and a loss such as MSE adds curvature of its own.
params = dict(relu_net.named_parameters())
xs = torch.randn(4, 3)


def out_sum(p):
    return torch.func.functional_call(relu_net, p, (xs,)).sum()


hw = torch.func.hessian(out_sum)(params)
cross = hw["0.weight"]["2.weight"]
print("ReLU net, Hessian of the output wrt (0.weight, 2.weight) is all zeros:", bool((cross == 0).all()))
mse = torch.func.hessian(lambda w: (torch.func.functional_call(
    relu_net, {**params, "2.weight": w}, (xs,)) - 1).pow(2).mean())(params["2.weight"])
print("ReLU net, MSE loss's Hessian wrt 2.weight is all zeros:", bool((mse == 0).all()))
