import torch
from torch.autograd import gradcheck, gradgradcheck

torch.manual_seed(0)


class Softplus(torch.autograd.Function):
    """softplus(x) = log(1 + exp(x)), written so exp never overflows."""

    @staticmethod
    def forward(x, beta):
        return torch.log1p(torch.exp(-(beta * x).abs())) / beta + x.clamp(min=0)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, beta = inputs
        ctx.save_for_backward(x)  # tensors: saved with their version counter
        ctx.beta = beta  # non-tensors: plain attributes

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        # one gradient per forward input: None for the float beta
        return grad_out * torch.sigmoid(ctx.beta * x), None


x = torch.randn(5, dtype=torch.float64, requires_grad=True)
y = Softplus.apply(x, 2.0)
print("grad_fn:", type(y.grad_fn).__name__)
print("matches F.softplus:", torch.allclose(y, torch.nn.functional.softplus(x, beta=2.0)))
print("no overflow at x=1000:", Softplus.apply(torch.tensor([1000.0]), 2.0).tolist())
print("gradcheck:", gradcheck(lambda t: Softplus.apply(t, 2.0), (x,)))
print("gradgradcheck:", gradgradcheck(lambda t: Softplus.apply(t, 2.0), (x,)))
