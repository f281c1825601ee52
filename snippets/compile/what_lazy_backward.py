import torch
from functorch.compile import make_boxed_func
from torch._dynamo.backends.common import aot_autograd

torch.manual_seed(0)

events = []


def fw_compiler(gm, example_inputs):
    events.append("forward compiled")
    return make_boxed_func(gm.forward)


def bw_compiler(gm, example_inputs):
    events.append("backward compiled")
    return make_boxed_func(gm.forward)


def f(x):
    return (torch.sin(x) * 2).sum()


compiled = torch.compile(f, backend=aot_autograd(fw_compiler=fw_compiler, bw_compiler=bw_compiler))
for n in (4, 8, 16):  # dynamic=None: size 8 recompiles with a symbolic size, 16 reuses it
    events.clear()
    out = compiled(torch.randn(n, requires_grad=True))
    after_forward = list(events)
    out.backward()
    print(f"size {n:2}: after forward {after_forward}, after backward {events[len(after_forward):]}")
