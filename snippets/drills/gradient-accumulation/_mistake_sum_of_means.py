# mistake: the micro-batches' mean losses are backpropagated as they are: the gradients add up to
# the sum of k means, k times the full batch's gradient for k equal micro-batches
# fails: equal_sizes
def accumulate_step(model, loss_fn, optimizer, micro_batches):
    total = sum(x.shape[0] for x, _ in micro_batches)
    optimizer.zero_grad()
    loss_sum = 0.0
    for x, y in micro_batches:
        loss = loss_fn(model(x), y)
        loss.backward()  # not scaled
        loss_sum += loss.item() * x.shape[0]
    optimizer.step()
    return loss_sum / total
