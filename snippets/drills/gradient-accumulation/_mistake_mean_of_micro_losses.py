# mistake: the step is right, but the returned loss is the plain mean of the micro-batches' mean
# losses, which is the full batch's mean only when the sizes are equal
# fails: returns_loss
def accumulate_step(model, loss_fn, optimizer, micro_batches):
    total = sum(x.shape[0] for x, _ in micro_batches)
    optimizer.zero_grad()
    losses = []
    for x, y in micro_batches:
        loss = loss_fn(model(x), y)
        (loss * (x.shape[0] / total)).backward()
        losses.append(loss.item())
    optimizer.step()
    return sum(losses) / len(losses)  # should weight each by its size
