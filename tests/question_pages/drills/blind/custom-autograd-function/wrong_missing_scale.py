# wrong: the chain rule stops at the sigmoid: the gradient of y lacks the factor scale
# (right only for scale = 1)
import torch


class MulSigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, y: torch.Tensor, scale: float) -> torch.Tensor:
        ctx.save_for_backward(x, y)
        ctx.scale = scale
        return x * torch.sigmoid(y * scale)

    @staticmethod
    def backward(ctx, grad_out: torch.Tensor):
        x, y = ctx.saved_tensors
        s = torch.sigmoid(y * ctx.scale)
        grad_x = grad_y = None
        if ctx.needs_input_grad[0]:
            grad_x = grad_out * s
        if ctx.needs_input_grad[1]:
            grad_y = (grad_out * x * s * (1 - s)).sum_to_size(y.shape)
        return grad_x, grad_y, None


def mul_sigmoid(x: torch.Tensor, y: torch.Tensor, scale: float) -> torch.Tensor:
    return MulSigmoid.apply(x, y, scale)
