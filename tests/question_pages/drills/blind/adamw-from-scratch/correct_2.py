import torch


class AdamW(torch.optim.Optimizer):
    """AdamW written out formula by formula: new tensors for m and v, the step count a tensor,
    state under the docstring's names t, m and v."""

    def __init__(self, params, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2) -> None:
        super().__init__(params, {"lr": lr, "betas": tuple(betas), "eps": eps,
                                  "weight_decay": weight_decay})

    def _update(self, p: torch.Tensor, group: dict) -> None:
        beta1, beta2 = group["betas"]
        lr, eps, wd = group["lr"], group["eps"], group["weight_decay"]
        state = self.state[p]
        if "t" not in state:
            state["t"] = torch.tensor(0.0, dtype=torch.float64)
            state["m"] = torch.zeros_like(p)
            state["v"] = torch.zeros_like(p)
        state["t"] = state["t"] + 1
        t = state["t"].item()
        g = p.grad.detach()
        state["m"] = beta1 * state["m"] + (1 - beta1) * g
        state["v"] = beta2 * state["v"] + (1 - beta2) * g * g
        m_hat = state["m"] / (1 - beta1 ** t)
        v_hat = state["v"] / (1 - beta2 ** t)
        decayed = p.detach() * (1 - lr * wd)
        p.detach().copy_(decayed - lr * m_hat / (v_hat.sqrt() + eps))

    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        with torch.no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        self._update(p, group)
        return loss
