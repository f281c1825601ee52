import re

import torch


@torch.library.custom_op("demo::nofake", mutates_args=())
def nofake(x: torch.Tensor) -> torch.Tensor:  # a custom op with no register_fake
    return x * 2


def f(x):
    return nofake(x) + 1


for fullgraph in (False, True):
    torch._dynamo.reset()
    try:
        torch.compile(f, backend="eager", fullgraph=fullgraph)(torch.ones(3))
        print(f"fullgraph={fullgraph}: ran")
    except Exception as e:
        print(f"fullgraph={fullgraph}: {type(e).__module__}.{type(e).__name__}: {str(e).splitlines()[0]}")
        print("   ", re.search(r"There was no fake impl[^.]*\.", str(e)).group(0))


def g(x):
    return x + 1 if torch.compiler.is_compiling() else x - 1  # True only while Dynamo traces


print("eager g:", g(torch.zeros(1)).item(), "| compiled g:", torch.compile(g, backend="eager")(torch.zeros(1)).item())
