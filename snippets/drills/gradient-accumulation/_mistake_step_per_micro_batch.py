# mistake: the optimizer steps after every micro-batch: k small steps, each on a part of the
# batch and from parameters the previous one already moved, not one step on the whole batch
# fails: steps_once
def accumulate_step(model, loss_fn, optimizer, micro_batches):
    total = sum(x.shape[0] for x, _ in micro_batches)
    optimizer.zero_grad()
    loss_sum = 0.0
    for x, y in micro_batches:
        loss = loss_fn(model(x), y)
        (loss * (x.shape[0] / total)).backward()
        loss_sum += loss.item() * x.shape[0]
        optimizer.step()  # inside the loop
    return loss_sum / total
