# mistake: the weighted losses are summed and backpropagated once after the loop: the step is
# right, but every micro-batch's graph and activations stay alive until then, as with the large
# batch, which is what accumulation is meant to avoid
# fails: per_micro_batch
def accumulate_step(model, loss_fn, optimizer, micro_batches):
    total = sum(x.shape[0] for x, _ in micro_batches)
    optimizer.zero_grad()
    weighted = 0
    for x, y in micro_batches:
        weighted = weighted + loss_fn(model(x), y) * (x.shape[0] / total)
    weighted.backward()  # one backward through every micro-batch's graph
    optimizer.step()
    return weighted.item()
