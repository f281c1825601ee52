import contextlib

import torch

torch.manual_seed(0)

graphs = []


def counting_backend(gm, example_inputs):
    graphs.append([n.target.__name__ for n in gm.graph.nodes if n.op == "call_function"])
    return gm.forward  # run the graph as captured


@contextlib.contextmanager
def timed_block():  # a user-defined context manager
    yield


def break_in_loop(x):
    x = torch.sin(x)
    for _ in range(2):
        x = torch.cos(x)
        print("  print() in the loop")  # the graph break
    return torch.tan(x)


def break_in_user_ctx(x):
    x = torch.sin(x)
    with timed_block():
        x = torch.cos(x)
        print("  print() in timed_block()")  # the graph break
    return torch.tan(x)


def break_in_no_grad(x):
    x = torch.sin(x)
    with torch.no_grad():
        x = torch.cos(x)
        print("  print() in torch.no_grad()")  # the graph break
    return torch.tan(x)


for fn in (break_in_loop, break_in_user_ctx, break_in_no_grad):
    torch._dynamo.reset()
    graphs.clear()
    print(f"{fn.__name__}:")
    torch.compile(fn, backend=counting_backend)(torch.randn(4))
    print(f"  graphs compiled: {len(graphs)} {graphs}")
