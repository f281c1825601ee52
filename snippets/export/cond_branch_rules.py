#| expect: torch._dynamo.exc.UncapturedHigherOrderOpError
import logging
import re

import torch

torch.manual_seed(0)

# Hide a log line that export's error classifier prints for each failed export.
logging.getLogger("torch.export").setLevel(logging.CRITICAL)


def export_cond(true_fn, false_fn):
    class M(torch.nn.Module):
        def forward(self, x):
            return torch.cond(x.sum() > 0, true_fn, false_fn, (x,))

    return torch.export.export(M(), (torch.randn(4),))


# 1. Different sizes are allowed: the output gets a new unbacked size u0.
ep = export_cond(lambda t: t * 2, lambda t: t[:2] * 2)
out = [n for n in ep.graph.nodes if n.op == "output"][0].args[0][0]
print("output shape:", out.meta["val"].shape, ep.range_constraints)

# 2. Different dtypes are not.
try:
    export_cond(lambda t: t * 2, lambda t: t.int())
except RuntimeError as e:
    print(type(e).__name__ + ":", re.search(r"When merging[^\"]*", str(e)).group())

# 3. A branch may not return its input (or a view of it) unchanged.
export_cond(lambda t: t * 2, lambda t: t)
