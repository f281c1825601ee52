import torch

torch.manual_seed(0)


class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(x, beta):
        return torch.log1p(torch.exp(-(beta * x).abs())) / beta + x.clamp(min=0)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.beta = inputs[1]

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * torch.sigmoid(ctx.beta * x), None


dynamo_graphs = []


def recording_backend(gm, example_inputs):
    dynamo_graphs.append([str(n.target) for n in gm.graph.nodes if n.op == "call_function"])
    return gm.forward


def loss(x):
    return Softplus.apply(x, 2.0).sum()


x = torch.randn(5, requires_grad=True)
loss(x).backward()
eager_grad, x.grad = x.grad, None

torch.compile(loss, backend=recording_backend, fullgraph=True)(x).backward()
print("torch.compile, fullgraph=True: Dynamo graphs", dynamo_graphs)
print("gradient equals eager:", torch.allclose(x.grad, eager_grad))


class Model(torch.nn.Module):
    def forward(self, x):
        return Softplus.apply(x, 2.0)


def top_level_ops(ep):
    return [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]


ep = torch.export.export(Model(), (torch.randn(5),))
print("torch.export graph:", top_level_ops(ep))


class LinearThenSoftplus(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(5, 5)

    def forward(self, x):
        return Softplus.apply(self.lin(x), 2.0)


# Strict mode, and an input of the Function (here the Linear's output) requires grad:
ep = torch.export.export(LinearThenSoftplus(), (torch.randn(5),), strict=True)
print("strict=True, after a Linear:", top_level_ops(ep))
wrap = next(n for n in ep.graph.nodes if str(n.target) == "wrap_with_set_grad_enabled")
grad_enabled, submodule = wrap.args[0], getattr(ep.graph_module, wrap.args[1].target)
print("wrap_with_set_grad_enabled: grad enabled =", grad_enabled)
print("its submodule:", [str(n.target) for n in submodule.graph.nodes if n.op == "call_function"])
