# mistake: optimizer.zero_grad() runs inside the loop, before each micro-batch's backward: only
# the last micro-batch's gradient is left when the optimizer steps
# fails: gradients
def accumulate_step(model, loss_fn, optimizer, micro_batches):
    total = sum(x.shape[0] for x, _ in micro_batches)
    loss_sum = 0.0
    for x, y in micro_batches:
        optimizer.zero_grad()  # wipes the micro-batches before this one
        loss = loss_fn(model(x), y)
        (loss * (x.shape[0] / total)).backward()
        loss_sum += loss.item() * x.shape[0]
    optimizer.step()
    return loss_sum / total
