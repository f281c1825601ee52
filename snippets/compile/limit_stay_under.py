#| devices: cpu
import logging

import torch

logging.getLogger("torch._dynamo.convert_frame").setLevel(logging.ERROR)  # hide the limit warning

compiles, graph_runs = [], []


def counting_backend(gm, example_inputs):
    compiles.append(1)

    def run(*args):
        graph_runs.append(1)
        return gm.forward(*args)

    return run


def scale(x, lr):
    return x * lr


def total(x):
    return x.sum(dim=1)


def report(label, fn, calls, dynamic=None):
    torch._dynamo.reset()
    compiles.clear()
    graph_runs.clear()
    compiled = torch.compile(fn, backend=counting_backend, dynamic=dynamic)
    for args in calls:
        compiled(*args)
    eager = len(calls) - len(graph_runs)
    print(f"{label:38} compiles={len(compiles)}  calls run eagerly={eager}")


lrs = [0.1 * i for i in range(1, 13)]
x = torch.ones(3)
print("12 calls, a new Python float each time:")
report("  float, dynamic=False", scale, [(x, lr) for lr in lrs], dynamic=False)
report("  float, dynamic=None (default)", scale, [(x, lr) for lr in lrs])
report("  0-d tensor, dynamic=False", scale, [(x, torch.tensor(lr)) for lr in lrs], dynamic=False)

lengths = range(2, 14)
print("12 calls, a new sequence length each time:")
report("  dynamic=False", total, [(torch.ones(4, n),) for n in lengths], dynamic=False)
report("  dynamic=None (default)", total, [(torch.ones(4, n),) for n in lengths])
report("  dynamic=True", total, [(torch.ones(4, n),) for n in lengths], dynamic=True)
marked = []
for n in lengths:
    t = torch.ones(4, n)
    torch._dynamo.mark_dynamic(t, 1)  # only dim 1 is dynamic, from the first call on
    marked.append((t,))
report("  mark_dynamic(t, 1)", total, marked)
