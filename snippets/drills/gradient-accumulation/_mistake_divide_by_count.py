# mistake: each micro-batch's mean loss is divided by the number of micro-batches: right when the
# sizes are equal, but a micro-batch of 1 then weighs as much as one of 8
# fails: unequal_sizes
def accumulate_step(model, loss_fn, optimizer, micro_batches):
    k = len(micro_batches)
    total = sum(x.shape[0] for x, _ in micro_batches)
    optimizer.zero_grad()
    loss_sum = 0.0
    for x, y in micro_batches:
        loss = loss_fn(model(x), y)
        (loss / k).backward()  # should be loss * n / N
        loss_sum += loss.item() * x.shape[0]
    optimizer.step()
    return loss_sum / total
