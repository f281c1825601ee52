import logging

import torch

torch.manual_seed(0)

logging.getLogger("torch._dynamo").setLevel(logging.ERROR)  # quiet the recompile-limit warning
graphs, ran = [], []


def counting_backend(gm, example_inputs):
    """Name each graph by its ops, and note every time it runs."""
    name = "+".join(n.target.__name__ for n in gm.graph.nodes if n.op == "call_function")
    graphs.append(name)

    def run(*args):
        ran.append(name)
        return gm.forward(*args)

    return run


def f(x, n):
    x = torch.sin(x)
    torch._dynamo.graph_break()  # an explicit break: the rest is a resume function
    return x * n


torch._dynamo.config.recompile_limit = 2
compiled = torch.compile(f, backend=counting_backend, dynamic=False)
x = torch.randn(4)
for n in (1, 2, 3, 4):
    graphs.clear()
    ran.clear()
    compiled(x, n)
    print(f"n={n}: compiled {graphs}, ran {ran}")

with torch._dynamo.error_on_graph_break(True):
    try:
        torch.compile(f, backend="eager")(x, 1.5)
    except torch._dynamo.exc.Unsupported as e:
        print("under error_on_graph_break(True):", type(e).__name__, "-", str(e).splitlines()[0])
