import torch


class AdamW(torch.optim.Optimizer):
    """AdamW, as torch.optim.AdamW with amsgrad, maximize, foreach, fused, capturable and
    differentiable all off.

    params: an iterable of tensors, or of dicts (param groups) that may set their own lr, betas,
        eps and weight_decay; a group's missing keys come from the constructor's arguments.
    Each step(), for every group and every parameter p of it whose p.grad is not None, with g its
    gradient and t the number of steps this parameter has taken, this one included:
        p <- p * (1 - lr * weight_decay)          decoupled: not added to g
        m <- beta1 * m + (1 - beta1) * g          m and v start at zeros shaped and typed as p
        v <- beta2 * v + (1 - beta2) * g * g
        p <- p - lr * (m / (1 - beta1**t)) / (sqrt(v / (1 - beta2**t)) + eps)
    A parameter whose grad is None is skipped: not decayed, and its t does not advance; t, m and
    v belong to each parameter and live in self.state[p], so state_dict() and load_state_dict()
    carry them. p is updated in place (float32 or float64, any shape, 0-dim included) and stays
    a leaf that requires grad; zero_grad() is torch.optim.Optimizer's (do not override it).
    step(closure) calls closure() with gradients enabled and returns its loss; step() returns None.
    """

    def __init__(self, params, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2) -> None:
        raise NotImplementedError("write AdamW.__init__ here")

    def step(self, closure=None):
        raise NotImplementedError("write AdamW.step here")
