# wrong: each micro-batch's mean loss is divided by the number of micro-batches k, not weighted by
# n_i / N: the gradient and the returned loss are the mean of the means, wrong when the n_i differ


def accumulate_step(model, loss_fn, optimizer, micro_batches):
    optimizer.zero_grad(set_to_none=True)
    model.zero_grad(set_to_none=True)
    k = len(micro_batches)
    total = 0.0
    for x, y in micro_batches:
        loss = loss_fn(model(x), y) / k
        loss.backward()
        total += loss.item()
    optimizer.step()
    return float(total)
