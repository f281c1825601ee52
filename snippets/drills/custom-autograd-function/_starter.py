import torch


class MulSigmoid(torch.autograd.Function):
    """out = x * torch.sigmoid(y * scale), with the backward written by hand.

    forward(ctx, x, y, scale):
        x: a tensor of any shape (..., D) with at least one dimension, float32 or float64.
        y: a tensor of x's dtype whose shape broadcasts to x's shape (y.dim() <= x.dim(); each of
            its dimensions, aligned from the right, is 1 or equal to x's): for example (D,),
            (1, D), (T, 1) for x (B, T, D), x's own shape, or a 0-dim tensor.
        scale: a Python float (any value: negative, zero or large).
        Returns a new tensor of x's shape and dtype. Neither forward nor backward modifies x or y.
        Saves what backward needs with ctx.save_for_backward (scale, a float, may be a plain
        attribute of ctx): if a saved input is then modified in place before backward, backward
        either raises autograd's RuntimeError or still returns the gradient at the values the
        forward saw, never a gradient of the modified values.
    backward(ctx, grad_out):
        grad_out has x's shape. Returns exactly three values, in the order of forward's inputs:
        the gradient of x (x's shape), the gradient of y (y's shape: sum the broadcast
        dimensions back yourself) and None for scale. The gradient of an input that needs none
        (ctx.needs_input_grad) is None and is not computed.
        Gradients are finite and correct for saturated sigmoids (|y * scale| up to 100, float32
        included). Double backward is not required.
    Use torch ops only; do not call autograd (torch.autograd.grad, .backward()) inside.
    """

    @staticmethod
    def forward(ctx, x: torch.Tensor, y: torch.Tensor, scale: float) -> torch.Tensor:
        raise NotImplementedError("write the forward here")

    @staticmethod
    def backward(ctx, grad_out: torch.Tensor):
        raise NotImplementedError("write the backward here")


def mul_sigmoid(x: torch.Tensor, y: torch.Tensor, scale: float) -> torch.Tensor:
    """x * sigmoid(y * scale) through MulSigmoid (its output's grad_fn is MulSigmoid's backward)."""
    raise NotImplementedError("call MulSigmoid.apply here")
