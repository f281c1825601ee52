import torch


def cross_entropy(logits: torch.Tensor, target: torch.Tensor, ignore_index: int = -100,
                  label_smoothing: float = 0.0) -> torch.Tensor:
    """The mean cross-entropy loss, as torch.nn.functional.cross_entropy with reduction="mean".

    logits: (N, C), floating point: unnormalised scores, one row per sample, N >= 1, C >= 1.
    target: (N,), int64: each entry a class index in [0, C), or ignore_index.
    ignore_index: a target equal to it adds nothing to the loss or the gradient, and the mean is
        over the other targets only (divided by their count, not by N). It may be a valid class
        (a padding token 0) or outside [0, C) (the default, -100).
    label_smoothing: epsilon in [0, 1]. Each kept sample's target becomes (1 - epsilon) on its
        class plus epsilon / C on every class (its own included).
    Logits of any size (1000 and more) give a finite, exact loss.
    If every target is ignored, the loss is NaN (0 / 0), as F.cross_entropy's, and the gradient
        of logits is zeros, not NaN.
    Returns a 0-dim tensor in logits' dtype, differentiable with respect to logits.
    """
    raise NotImplementedError("write cross_entropy here")
