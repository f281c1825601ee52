def accumulate_step(model, loss_fn, optimizer, micro_batches):
    total = sum(x.shape[0] for x, _ in micro_batches)  # N: the full batch's samples
    optimizer.zero_grad()  # once, before the first backward: earlier gradients do not count
    loss_sum = 0.0
    for x, y in micro_batches:
        n = x.shape[0]
        loss = loss_fn(model(x), y)  # the mean over this micro-batch's n samples
        (loss * (n / total)).backward()  # weight n / N: the grads add up to the full-batch mean's
        loss_sum += loss.item() * n  # this micro-batch's summed loss
    optimizer.step()  # once, after every micro-batch
    return loss_sum / total
