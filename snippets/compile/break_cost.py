import torch

torch.manual_seed(0)

graphs = []


def counting_backend(gm, example_inputs):
    graphs.append([n.target.__name__ for n in gm.graph.nodes if n.op == "call_function"])
    return gm.forward  # run the graph as captured


def with_breaks(x):
    x = torch.sin(x)
    print("  print() ran in Python")
    x = torch.cos(x)
    if torch.sum(x) > 0:
        x = x + 1
    return x * 2


def without_breaks(x):
    x = torch.cos(torch.sin(x))
    x = torch.where(torch.sum(x) > 0, x + 1, x)  # the branch as a tensor op
    return x * 2


for fn in (with_breaks, without_breaks):
    torch._dynamo.reset()
    graphs.clear()
    compiled = torch.compile(fn, backend=counting_backend)
    x = torch.randn(4)
    expected = without_breaks(x)  # eager; the two functions compute the same thing
    print(f"{fn.__name__}, first call:")
    out = compiled(x)
    print("  graphs compiled:", len(graphs))
    for i, ops in enumerate(graphs, 1):
        print(f"    graph {i}: {ops}")
    print(f"{fn.__name__}, second call:")
    compiled(torch.randn(4))
    print("  graphs compiled so far:", len(graphs))
    print("  same result as eager:", torch.equal(out, expected))
