import torch

compiles = []


def counting_backend(gm, example_inputs):
    compiles.append(gm)
    return gm.forward


def f(x):
    return torch.sin(x)


def no_tensors(n):  # takes and returns plain ints
    return n + 1


f_compiled = torch.compile(f, backend=counting_backend)
with torch.compiler.set_stance("eager_on_recompile"):
    f_compiled(torch.ones(4))  # a first call: nothing cached, and nothing compiled
print("eager_on_recompile, first call: compiled", len(compiles))
f_compiled(torch.ones(4))
print("default stance, same call: compiled", len(compiles))

with torch.compiler.set_stance("fail_on_recompile"):
    try:
        torch.compile(no_tensors, backend=counting_backend)(1)
    except RuntimeError as e:
        print("fail_on_recompile, a function without tensors:", str(e).split(". ")[0])
