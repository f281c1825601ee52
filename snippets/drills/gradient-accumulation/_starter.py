import torch


def accumulate_step(model, loss_fn, optimizer, micro_batches):
    """One optimizer step on a batch given as micro-batches, with gradient accumulation.

    model: a torch.nn.Module in which each sample's output depends on that sample only (no
        BatchNorm, no dropout), float32 or float64.
    loss_fn(output, y): returns a 0-dim tensor, the MEAN of a per-sample loss over the samples of
        the micro-batch it is given (as torch.nn.MSELoss() or torch.nn.CrossEntropyLoss() with
        their default reduction="mean").
    optimizer: a torch.optim optimizer over model's parameters (SGD, AdamW, ...), possibly with
        state from earlier steps.
    micro_batches: a non-empty list of (x, y) pairs; micro-batch i has n_i >= 1 samples along
        dim 0 of x and y, and the n_i may differ. Concatenated along dim 0 they are the full batch
        of N = n_1 + ... + n_k samples.

    Runs each micro-batch through model on its own, in order, and calls backward on its loss,
    adding its share of the gradient into the parameters' .grad, before the next micro-batch's
    forward (the point of accumulation: only one micro-batch's activations are alive at a time). Gradients already in the parameters' .grad when the call starts do not
    count. After the call, each parameter's .grad holds the gradient of the full batch's mean
    loss, loss_fn(model(x_all), y_all), and the optimizer has stepped exactly once with it: the
    parameters are what one optimizer.step() after that full-batch backward gives (up to float
    rounding).
    Returns the full batch's mean loss (over all N samples, before the step) as a Python float.
    """
    raise NotImplementedError("write accumulate_step here")
