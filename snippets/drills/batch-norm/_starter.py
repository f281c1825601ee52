import torch


class BatchNorm(torch.nn.Module):
    """Batch normalisation over the channels of (N, C) or (N, C, L) inputs, in train and eval mode:
    the same module as torch.nn.BatchNorm1d(num_features, eps, momentum) with affine=True and
    track_running_stats=True, written without F.batch_norm, torch.batch_norm or nn.BatchNorm*.

    __init__(num_features, eps=1e-5, momentum=0.1): C = num_features; momentum is a float.
        Parameters (trained, in parameters() and state_dict()):
            weight: (C,), ones; bias: (C,), zeros.
        Buffers (not parameters: in buffers() and state_dict(), no gradient, moved by .to()
        and .double() like the parameters):
            running_mean: (C,), zeros; running_var: (C,), ones;
            num_batches_tracked: a 0-dim int64 tensor, 0.

    forward(x): x is (N, C) or (N, C, L), float32 or float64 (the module's dtype). Each channel c
    is normalised over its N * L values (every dimension but 1):
        out = (x - mean) / sqrt(var + eps) * weight + bias
    Training mode (self.training): mean and var are the batch's, var the biased variance (divided
    by n = N * L). The buffers are then updated in place, without autograd history:
        running_mean = (1 - momentum) * running_mean + momentum * mean
        running_var  = (1 - momentum) * running_var  + momentum * var * n / (n - 1)  (unbiased)
        num_batches_tracked += 1
    With one value per channel (n == 1) training is impossible: raise ValueError.
    Eval mode: mean and var are running_mean and running_var, and no buffer changes; any N works,
    N = 1 included.
    Returns a new tensor of x's shape and dtype, differentiable with respect to x, weight and bias
    (through the batch mean and variance in training mode).
    """

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1):
        super().__init__()
        raise NotImplementedError("create weight, bias and the three buffers here")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError("write the forward here")
