import torch


def accumulate_step(model, loss_fn, optimizer, micro_batches):
    """One optimizer step on a batch given as micro-batches, with gradient accumulation."""
    params = list(model.parameters())
    for group in optimizer.param_groups:
        params.extend(group["params"])
    for p in params:
        p.grad = None

    sizes = [int(x.shape[0]) for x, _ in micro_batches]
    n_total = sum(sizes)
    loss_sum = torch.zeros((), dtype=torch.float64)
    for (x, y), n in zip(micro_batches, sizes, strict=True):
        out = model(x)
        # n_i * mean_i is this micro-batch's SUM of per-sample losses; divide by N once at the end
        summed = loss_fn(out, y) * n
        summed.backward()
        loss_sum += summed.detach().to(device="cpu", dtype=torch.float64)
        del out, summed

    with torch.no_grad():
        seen = set()
        for p in params:
            if p.grad is not None and id(p) not in seen:
                seen.add(id(p))
                p.grad.div_(n_total)
    optimizer.step()
    return (loss_sum / n_total).item()
