import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 16))
graphs = []


def counting_backend(gm, example_inputs):
    inputs = [n.meta["example_value"] for n in gm.graph.nodes if n.op == "placeholder"]
    x = next(v for v in inputs if isinstance(v, torch.Tensor) and not isinstance(v, torch.nn.Parameter))
    graphs.append(tuple(x.shape))  # the token input's shape in this graph: ints, or a symbol
    return gm.forward  # run the captured graph as it is (like backend="eager")


def serve(name, compiled, mark=False):
    graphs.clear()
    for num_tokens in (8, 16, 40, 1, 2):  # a step's tokens, flattened across requests
        x = torch.randn(num_tokens, 16)
        if mark == "unbacked":
            torch._dynamo.decorators.mark_unbacked(x, 0)  # a size read from data: no 0/1 specialisation
        elif mark:
            torch._dynamo.mark_dynamic(x, 0)
        torch.testing.assert_close(compiled(x), model(x))
        print(f"{name:<22} num_tokens {num_tokens:>2}: graphs so far {len(graphs)}")
    print(f"{name:<22} traced shapes: {graphs}")
    torch._dynamo.reset()


serve("default (dynamic=None)", torch.compile(model, backend=counting_backend))
serve("mark_dynamic(x, 0)", torch.compile(model, backend=counting_backend), mark=True)
serve("dynamic=True", torch.compile(model, backend=counting_backend, dynamic=True))
serve("mark_unbacked(x, 0)", torch.compile(model, backend=counting_backend), mark="unbacked")
