#| expect: torch.autograd.gradcheck.GradcheckError
import torch
from torch.autograd import gradcheck

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
        return grad_out * torch.sigmoid(x), None  # bug: forgot beta inside the sigmoid


x = torch.randn(3, dtype=torch.float64, requires_grad=True)
print("beta=1.0:", gradcheck(lambda t: Softplus.apply(t, 1.0), (x,)))  # the bug is invisible at beta=1
gradcheck(lambda t: Softplus.apply(t, 2.0), (x,))
