import gc
import weakref

import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(256, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1))
params = {p.untyped_storage().data_ptr() for p in model.parameters()}
saved = []  # a weak reference to every activation autograd saves (parameters left out)


def pack(t):
    t = t.detach()  # what the graph will hold; returning t itself would tie it to its grad_fn in a cycle
    if t.untyped_storage().data_ptr() not in params:
        saved.append(weakref.ref(t))
    return t


def run(keep, backward):
    saved.clear()
    history = []
    for _ in range(5):
        x, y = torch.randn(64, 256), torch.randn(64, 1)
        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            loss = torch.nn.functional.mse_loss(model(x), y)
        if backward:
            model.zero_grad()
            loss.backward()
        if keep == "total += loss":
            history = [history[0] + loss] if history else [loss]
        elif keep == "loss.detach()":
            history.append(loss.detach())
        else:
            history.append(loss if keep == "loss" else loss.item())
    gc.collect()
    alive = {t.untyped_storage().data_ptr(): t.untyped_storage().nbytes() for r in saved if (t := r()) is not None}
    with_graph = sum(isinstance(h, torch.Tensor) and h.grad_fn is not None for h in history)
    print(f"keep {keep:13} backward={backward!s:5} | kept tensors with a grad_fn: {with_graph} | saved activations alive:"
          f" {len(alive):2} storages, {sum(alive.values()):,} bytes")


run(keep="loss", backward=False)  # e.g. an eval loop without torch.no_grad()
run(keep="total += loss", backward=False)  # a running sum chains every step's graph
run(keep="loss.item()", backward=False)
run(keep="loss.detach()", backward=False)  # a tensor again, but with no grad_fn
run(keep="loss", backward=True)  # training: backward() already freed what the graph saved
