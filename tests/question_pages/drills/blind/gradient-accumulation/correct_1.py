def accumulate_step(model, loss_fn, optimizer, micro_batches):
    """One optimizer step on a batch given as micro-batches, with gradient accumulation."""
    # earlier gradients do not count: clear them (to None, as optimizer.zero_grad() does)
    optimizer.zero_grad(set_to_none=True)
    model.zero_grad(set_to_none=True)
    n_total = sum(x.shape[0] for x, _ in micro_batches)
    total = 0.0
    for x, y in micro_batches:
        # the mean over this micro-batch, weighted by its share n_i / N of the full batch
        loss = loss_fn(model(x), y) * (x.shape[0] / n_total)
        loss.backward()
        total += loss.item()
    optimizer.step()
    return float(total)
