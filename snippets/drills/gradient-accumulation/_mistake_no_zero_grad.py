# mistake: the gradients are never zeroed at the start: whatever .grad held before the call (the
# previous step's gradient, in a training loop) is added to this batch's
# fails: stale_gradients
def accumulate_step(model, loss_fn, optimizer, micro_batches):
    total = sum(x.shape[0] for x, _ in micro_batches)
    loss_sum = 0.0
    for x, y in micro_batches:
        loss = loss_fn(model(x), y)
        (loss * (x.shape[0] / total)).backward()
        loss_sum += loss.item() * x.shape[0]
    optimizer.step()
    return loss_sum / total
