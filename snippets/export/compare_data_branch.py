import contextlib
import io
import logging
import warnings

import torch

warnings.simplefilter("ignore", DeprecationWarning)  # torch.jit.* warns it is deprecated
logging.getLogger("torch.fx.experimental.symbolic_shapes").setLevel(logging.ERROR)


class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # the branch depends on the data
            return x * 2
        return -x


pos, neg = torch.ones(3), -torch.ones(3)
print(f"{'eager':18}", Gate()(neg))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", torch.jit.TracerWarning)
    traced = torch.jit.trace(Gate(), (pos,))
print(f"{'jit.trace':18}", traced(neg), "<- wrong, and no error")
print(f"{'':18}", "warning only:", str(caught[0].message).split(".")[0])
print(f"{'jit.script':18}", torch.jit.script(Gate())(neg))

attempts = {
    "fx.symbolic_trace": lambda: torch.fx.symbolic_trace(Gate()),
    "export": lambda: torch.export.export(Gate(), (pos,)),
    "export strict": lambda: torch.export.export(Gate(), (pos,), strict=True),
}
for name, attempt in attempts.items():
    try:
        with contextlib.redirect_stderr(io.StringIO()):  # export prints a partial graph
            attempt()
    except Exception as e:
        print(f"{name:18}", type(e).__name__ + ":", str(e).splitlines()[0])
