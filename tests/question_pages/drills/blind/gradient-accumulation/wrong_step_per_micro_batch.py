# wrong: optimizer.step() (and zero_grad) after every micro-batch: k steps instead of one, later
# micro-batches see moved parameters, and .grad ends up holding the last micro-batch's share only


def accumulate_step(model, loss_fn, optimizer, micro_batches):
    n_total = sum(x.shape[0] for x, _ in micro_batches)
    total = 0.0
    for x, y in micro_batches:
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y) * (x.shape[0] / n_total)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return float(total)
