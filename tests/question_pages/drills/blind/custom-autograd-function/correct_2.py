import torch


class MulSigmoid(torch.autograd.Function):
    """Saves x and the sigmoid (an intermediate, so an in-place change of y after forward cannot
    touch it); sigmoid' written as sigmoid(z) * sigmoid(-z), and the broadcast dimensions of y
    summed back by hand: the leading ones, then those where y has size 1."""

    @staticmethod
    def forward(ctx, x: torch.Tensor, y: torch.Tensor, scale: float) -> torch.Tensor:
        z = y * scale
        s = torch.sigmoid(z)
        ctx.scale = float(scale)
        ctx.y_shape = y.shape
        ctx.save_for_backward(x, s, torch.sigmoid(-z))
        return torch.mul(x, s)

    @staticmethod
    def backward(ctx, grad_out: torch.Tensor):
        x, s, s_neg = ctx.saved_tensors
        needs_x, needs_y, _ = ctx.needs_input_grad
        grad_x = grad_y = None
        if needs_x:
            grad_x = torch.mul(grad_out, s)
            if grad_x.shape != x.shape:
                grad_x = grad_x.expand(x.shape).clone()
        if needs_y:
            g = grad_out * x * s * s_neg * ctx.scale
            y_shape = ctx.y_shape
            extra = g.dim() - len(y_shape)
            if extra > 0:
                g = g.sum(dim=tuple(range(extra)))
            dims = tuple(i for i, n in enumerate(y_shape) if n == 1 and g.shape[i] != 1)
            if dims:
                g = g.sum(dim=dims, keepdim=True)
            grad_y = g.reshape(y_shape)
        return grad_x, grad_y, None


def mul_sigmoid(x: torch.Tensor, y: torch.Tensor, scale: float) -> torch.Tensor:
    """x * sigmoid(y * scale) through MulSigmoid (its output's grad_fn is MulSigmoid's backward)."""
    return MulSigmoid.apply(x, y, scale)
