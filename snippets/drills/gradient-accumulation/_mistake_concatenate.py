# mistake: the micro-batches are concatenated and run as one batch: the step is right, but the
# memory is the large batch's, so nothing was accumulated
# fails: per_micro_batch
import torch


def accumulate_step(model, loss_fn, optimizer, micro_batches):
    x = torch.cat([x for x, _ in micro_batches])
    y = torch.cat([y for _, y in micro_batches])
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()
