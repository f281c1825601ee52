#| expect: torch._dynamo.exc.Unsupported
import torch

torch.manual_seed(0)


def f(x):
    x = torch.sin(x)
    print("side effect")  # Dynamo cannot put this in a graph
    return torch.cos(x)


# Default (fullgraph=False): Dynamo breaks the graph, runs print() in Python, carries on.
out = torch.compile(f, backend="eager")(torch.randn(4))
print("fullgraph=False ran, output shape:", tuple(out.shape))

# fullgraph=True: the first graph break is an error, raised on the first call.
torch._dynamo.reset()
strict = torch.compile(f, backend="eager", fullgraph=True)
print("torch.compile(..., fullgraph=True) returned; calling it:")
strict(torch.randn(4))
