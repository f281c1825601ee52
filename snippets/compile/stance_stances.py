import re

import torch

torch.manual_seed(0)

compiles, graph_runs = [], [0]


def counting_backend(gm, example_inputs):
    inputs = [n.meta["example_value"] for n in gm.graph.nodes if n.op == "placeholder"]
    x = next(v for v in inputs if isinstance(v, torch.Tensor))
    compiles.append(tuple(x.shape))  # a symbol such as s77 for a dynamic size

    def run(*args):
        graph_runs[0] += 1
        return gm.forward(*args)
    return run


def f(x):
    return torch.sin(x) + 1


def fresh(x):
    return torch.cos(x)


def call(label, n):
    before = (len(compiles), graph_runs[0])
    f_compiled(torch.randn(n))
    print(f"{label:32} size {n}: compiled {len(compiles) - before[0]}, "
          f"ran compiled graph {graph_runs[0] - before[1]}")


f_compiled = torch.compile(f, backend=counting_backend)
fresh_compiled = torch.compile(fresh, backend="eager")  # not called before fail_on_recompile
call("default", 4)
with torch.compiler.set_stance("force_eager"):
    call("force_eager", 4)
with torch.compiler.set_stance("eager_on_recompile"):
    call("eager_on_recompile", 8)   # would need a new graph: runs eagerly instead
    call("eager_on_recompile", 4)   # the cached graph still fits: it is used
with torch.compiler.set_stance("fail_on_recompile"):
    try:
        call("fail_on_recompile", 8)
    except RuntimeError as e:
        print("fail_on_recompile raised RuntimeError:")
        for line in str(e).splitlines():
            print("   ", line.replace(__file__, "<this file>"))
    try:
        fresh_compiled(torch.randn(4))  # a first call: nothing is cached for this function
    except RuntimeError as e:
        print("fail_on_recompile, first call of a new function, raised RuntimeError:")
        print("   ", str(e).splitlines()[0].replace(__file__, "<this file>"))
call("default again", 8)
print("shapes Dynamo compiled for:", compiles)

torch._dynamo.reset()
compiles.clear()
with torch.compiler.set_stance("eager_then_compile"):
    call("eager_then_compile", 4)   # first call: eager, sizes are recorded
    call("eager_then_compile", 8)   # second call: compiles, the changed size is dynamic
    call("eager_then_compile", 16)
print("shapes Dynamo compiled for:", compiles)


@torch.compile(backend="eager")
def sets_stance(x):
    torch.compiler.set_stance("force_eager")  # not allowed inside a compiled function
    return x + 1


try:
    sets_stance(torch.randn(4))
except AssertionError as e:
    first = re.sub(r" at 0x[0-9a-f]+", "", str(e).splitlines()[0])  # drop the address
    print("set_stance inside a compiled function raised AssertionError:", first)

torch.compiler.set_stance("force-eager")  # a typo: accepted here...
print("set_stance('force-eager') returned without complaint")
try:
    f_compiled(torch.randn(4))            # ...and rejected at the next compiled call
except RuntimeError as e:
    print("next call raised RuntimeError:", e)
torch.compiler.set_stance("default")
