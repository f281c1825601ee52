#| devices: cpu
import torch

compiled_graphs = []


def show_backend(gm, example_inputs):
    """Print what each graph was compiled for: its placeholders' fake values, as Dynamo saw them."""
    shapes = []
    for node in gm.graph.find_nodes(op="placeholder"):
        val = node.meta["example_value"]  # a FakeTensor, or a SymInt for a size passed in
        shapes.append(f"{node.name}: {tuple(val.shape) if isinstance(val, torch.Tensor) else val}")
    compiled_graphs.append(shapes)
    print(f"    compiled graph {len(compiled_graphs) - 1}: inputs {', '.join(shapes)}")
    return gm.forward


def f(x):
    return (x * 2).sum(dim=0)


for dynamic in (None, True, False):
    torch._dynamo.reset()
    compiled_graphs.clear()
    print(f"dynamic={dynamic}:")
    compiled = torch.compile(f, backend=show_backend, dynamic=dynamic)
    for rows in (4, 6, 8):
        print(f"  call with x of shape ({rows}, 3)")
        compiled(torch.ones(rows, 3))
    print(f"  -> {len(compiled_graphs)} graph(s) for 3 calls")
