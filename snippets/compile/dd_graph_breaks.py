#| devices: cpu
import logging

import torch
from torch._dynamo.utils import counters

logging.getLogger("torch._dynamo.variables.tensor").setLevel(logging.ERROR)  # hide the .item() hint


def show_backend(gm, example_inputs):
    ops = [getattr(n.target, "__name__", str(n.target)) for n in gm.graph.nodes
           if n.op in ("call_function", "call_method")]
    inputs = [tuple(n.meta["example_value"].shape) for n in gm.graph.find_nodes(op="placeholder")]
    print(f"    graph: inputs {inputs}, ops {ops}")
    return gm.forward


def scale_by_count(x):
    y = x.abs()
    n = (y > 1).sum().item()  # a Python number read out of a tensor
    return y * n


def gather_nonzero(x):
    y = x * 3
    idx = y.nonzero()  # how many rows: depends on the values in y
    return x[idx[:, 0]] * 2


x = torch.tensor([1.0, 0.0, -3.0, 4.0])
for fn, flag in ((scale_by_count, "capture_scalar_outputs"),
                 (gather_nonzero, "capture_dynamic_output_shape_ops")):
    for label, settings, fullgraph in ((f"{flag}=False (default)", {flag: False}, False),
                                       (f"{flag}=True", {flag: True}, False),
                                       ("fullgraph=True, flag left False", {flag: False}, True)):
        torch._dynamo.reset()
        counters.clear()
        print(f"{fn.__name__}, {label}:")
        with torch._dynamo.config.patch(**settings):
            out = torch.compile(fn, backend=show_backend, fullgraph=fullgraph)(x)
        for reason in counters["graph_break"]:
            print("    graph break:", reason.splitlines()[0])
        print("    same as eager:", torch.equal(out, fn(x)))
