import torch


class MulSigmoid(torch.autograd.Function):
    """Saves the inputs x and y themselves; backward recomputes the sigmoid, uses
    sigmoid' = s * (1 - s) (0, never NaN, when saturated) and sum_to_size for y's broadcast."""

    @staticmethod
    def forward(ctx, x: torch.Tensor, y: torch.Tensor, scale: float) -> torch.Tensor:
        ctx.save_for_backward(x, y)
        ctx.scale = scale
        return x * torch.sigmoid(y * scale)

    @staticmethod
    def backward(ctx, grad_out: torch.Tensor):
        x, y = ctx.saved_tensors
        scale = ctx.scale
        s = torch.sigmoid(y * scale)
        grad_x = grad_y = None
        if ctx.needs_input_grad[0]:
            grad_x = grad_out * s
        if ctx.needs_input_grad[1]:
            grad_y = (grad_out * x * (s * (1 - s)) * scale).sum_to_size(y.shape)
        return grad_x, grad_y, None


def mul_sigmoid(x: torch.Tensor, y: torch.Tensor, scale: float) -> torch.Tensor:
    """x * sigmoid(y * scale) through MulSigmoid (its output's grad_fn is MulSigmoid's backward)."""
    return MulSigmoid.apply(x, y, scale)
