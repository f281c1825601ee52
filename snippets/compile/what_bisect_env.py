import os

import torch

seen = []


def my_backend(gm, example_inputs):  # a custom backend that records its calls
    seen.append(len(gm.graph.nodes))
    return gm.forward


def f(x):
    return torch.sin(x) + 1


os.environ["TORCH_BISECT_BACKEND"] = "eager"  # what compiler_bisector sets for each run
torch.compile(f, backend=my_backend)(torch.ones(3))
print("TORCH_BISECT_BACKEND=eager, my_backend called:", bool(seen))

del os.environ["TORCH_BISECT_BACKEND"]
torch._dynamo.reset()
torch.compile(f, backend=my_backend)(torch.ones(3))
print("variable deleted, my_backend called:", bool(seen))
print("the bisector's cached value:", torch._inductor.compiler_bisector.get_env_val("TORCH_BISECT_BACKEND"))
