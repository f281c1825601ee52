# wrong: .grad is not cleared at the start, so gradients left from before the call are added into
# the accumulated gradient and the step


def accumulate_step(model, loss_fn, optimizer, micro_batches):
    n_total = sum(x.shape[0] for x, _ in micro_batches)
    total = 0.0
    for x, y in micro_batches:
        loss = loss_fn(model(x), y) * (x.shape[0] / n_total)
        loss.backward()
        total += loss.item()
    optimizer.step()
    return float(total)
