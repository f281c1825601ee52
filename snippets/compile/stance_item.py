import torch


def f(x):
    n = x.sum().item()  # a Python number computed from tensor data
    return x * n


def graphs_for(fullgraph):
    graphs = []

    def backend(gm, example_inputs):
        graphs.append([str(n.target) for n in gm.graph.nodes if n.op in ("call_function", "call_method")])
        return gm.forward

    torch._dynamo.reset()
    out = torch.compile(f, backend=backend, fullgraph=fullgraph)(torch.ones(3))
    print(f"fullgraph={fullgraph}: {len(graphs)} graph(s) {graphs}, output {out.tolist()}")


graphs_for(False)  # .item() is a graph break by default
graphs_for(True)   # fullgraph=True also turns on capture_scalar_outputs: .item() is a node
