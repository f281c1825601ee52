#| devices: cpu
import contextlib
import io
import logging

import torch

torch.manual_seed(0)

logging.getLogger("torch.fx.experimental.symbolic_shapes").setLevel(logging.ERROR)


@torch.library.custom_op("demo::shift", mutates_args=())
def shift(x: torch.Tensor) -> torch.Tensor:
    return x + 1


@shift.register_fake
def _(x):
    return x + 1  # the same torch ops as the kernel: fine, they run on fake tensors


@torch.library.custom_op("demo::shift_by_max", mutates_args=())
def shift_by_max(x: torch.Tensor) -> torch.Tensor:
    return x + x.max()


@shift_by_max.register_fake
def _(x):
    return x + float(x.max())  # reads a value out of the tensor: a fake has none


def export_one(op):
    class M(torch.nn.Module):
        def forward(self, x):
            return op(x) * 2

    return torch.export.export(M(), (torch.randn(3),))


ep = export_one(shift)
print("fake with torch ops:", [str(n.target) for n in ep.graph.nodes if n.op == "call_function"])
print("  opcheck:", torch.library.opcheck(shift, (torch.randn(3),))["test_faketensor"])
try:
    with contextlib.redirect_stderr(io.StringIO()):  # export prints a partial graph
        export_one(shift_by_max)
except Exception as e:
    print("fake that reads data:", type(e).__name__ + ":", str(e).splitlines()[0])
