# mistake: mul_sigmoid returns the plain expression and autograd differentiates it: right values
# and gradients, but the task was the Function with its backward written by hand
# fails: is_a_function
import torch


def sum_to(grad, shape):
    """Sum a gradient of the broadcast shape back to `shape`: first the leading dimensions that
    broadcasting added, then (keeping them) the dimensions that were 1 and got expanded."""
    extra = grad.dim() - len(shape)
    grad = grad.sum(dim=tuple(range(extra))) if extra > 0 else grad
    ones = tuple(i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1)
    return grad.sum(dim=ones, keepdim=True) if ones else grad


class MulSigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, scale):
        s = torch.sigmoid(y * scale)  # saved: backward needs it for both gradients
        ctx.save_for_backward(x, s)
        ctx.scale, ctx.y_shape = scale, y.shape
        return x * s

    @staticmethod
    def backward(ctx, grad_out):
        x, s = ctx.saved_tensors
        grad_x = grad_y = None
        if ctx.needs_input_grad[0]:
            grad_x = grad_out * s  # x's shape: s broadcasts to it
        if ctx.needs_input_grad[1]:
            # d sigmoid(z) / dz = s * (1 - s), and dz / dy = scale
            grad_y = sum_to(grad_out * x * s * (1 - s) * ctx.scale, ctx.y_shape)
        return grad_x, grad_y, None  # None: scale is not a tensor


def mul_sigmoid(x, y, scale):
    return x * torch.sigmoid(y * scale)
