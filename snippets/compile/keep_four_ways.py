import torch
from torch._dynamo.backends.common import aot_autograd
from torch._functorch.aot_autograd import make_boxed_func

torch.manual_seed(0)


def body(x):
    print("      helper body ran")  # a Python side effect Dynamo cannot trace
    return x * 2 + 1


def plain(x):
    return body(x)


@torch.compiler.disable
def disabled(x):
    return body(x)


@torch.compiler.allow_in_graph
def allowed(x):
    return body(x)


@torch.library.custom_op("demo::scale", mutates_args=())
def custom(x: torch.Tensor) -> torch.Tensor:
    return body(x)


@custom.register_fake
def _(x):
    return torch.empty_like(x)  # shape and dtype only, for tracing


def name(target):
    if isinstance(target, torch._ops.OpOverload):
        return str(target)  # e.g. aten.sin.default, demo.scale.default
    return target.__name__


def show_aten(gm, example_inputs):
    print("    AOTAutograd graph:", [name(n.target) for n in gm.graph.nodes if n.op == "call_function"])
    return make_boxed_func(gm.forward)


to_aten = aot_autograd(fw_compiler=show_aten)


def backend(gm, example_inputs):
    print("    Dynamo graph:     ", [name(n.target) for n in gm.graph.nodes if n.op == "call_function"])
    return to_aten(gm, example_inputs)


for label, helper in [("no decorator", plain), ("torch.compiler.disable", disabled),
                      ("torch.compiler.allow_in_graph", allowed), ("torch.library.custom_op", custom)]:
    torch._dynamo.reset()

    @torch.compile(backend=backend)
    def f(x):
        return torch.cos(helper(torch.sin(x)))

    print(f"{label}:")
    print("  call 1 (compiles):")
    f(torch.randn(3))
    print("  call 2 (cached):")
    f(torch.randn(3))

# The same allow_in_graph case, counting where its body runs: while tracing (on fake tensors,
# torch.compiler.is_compiling() is True) or when the compiled code is called.
runs = {"tracing": 0, "calls": 0}


@torch.compiler.allow_in_graph
def counted(x):
    runs["tracing" if torch.compiler.is_compiling() else "calls"] += 1
    return x * 2 + 1


print("torch.compiler.allow_in_graph, times its body ran:")
for backend_name in ["aot_eager", "eager"]:
    torch._dynamo.reset()

    @torch.compile(backend=backend_name)
    def g(x):
        return torch.cos(counted(torch.sin(x)))

    for call in ["call 1 (compiles)", "call 2 (cached)"]:
        runs.update(tracing=0, calls=0)
        g(torch.randn(3))
        print(f"  backend={backend_name!r:11} {call:18} while tracing {runs['tracing']}, "
              f"at call time {runs['calls']}")
