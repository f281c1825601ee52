#| devices: cpu
import contextlib
import io
import logging

import torch

torch.manual_seed(0)

logging.getLogger("torch.fx.experimental.symbolic_shapes").setLevel(logging.ERROR)


class ItemBranch(torch.nn.Module):
    def forward(self, x, k):
        if k.item() > x.shape[0]:  # a Python int read from a tensor
            return x * 0
        return x


class TensorBranch(torch.nn.Module):
    def forward(self, x, k):
        if x.sum() > k:  # a tensor used directly as a Python bool
            return x * 0
        return x


args = (torch.randn(8), torch.tensor(3))
for model in (ItemBranch(), TensorBranch()):
    try:
        with contextlib.redirect_stderr(io.StringIO()):  # export prints a partial graph
            torch.export.export(model, args)
    except torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode as e:
        lines = str(e).splitlines()
        print(type(model).__name__)
        print("  ", next(line for line in lines if line.startswith("Caused by")))
        if "The following call raised this error:" in lines:
            i = lines.index("The following call raised this error:")
            print("  ", lines[i], "|", lines[i + 1].strip(), "|", lines[i + 2].strip())
