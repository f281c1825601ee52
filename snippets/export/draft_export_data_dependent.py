#| expect: RuntimeError
import contextlib
import io
import logging
import warnings

import torch

torch.manual_seed(0)

# Quiet draft_export's log banner; this snippet prints the parts of the report it needs.
logging.getLogger("torch").setLevel(logging.CRITICAL)
warnings.simplefilter("ignore", ResourceWarning)  # draft_export leaves its trace log open


class Head(torch.nn.Module):
    def forward(self, x, n):
        k = n.item()
        if k > 2:  # a Python branch on a value read from a tensor
            return x[:k] * 2
        return x * 0


args = (torch.randn(6), torch.tensor(4))
try:
    with contextlib.redirect_stderr(io.StringIO()):  # export also dumps a partial graph
        torch.export.export(Head(), args)
except Exception as e:
    print("export:", type(e).__name__)

ep = torch.export.draft_export(Head(), args)
for f in ep._report.failures:
    print("draft_export:", f.failure_type, "on", f.data["expr"], "-> assumed", f.data["result"])
for line in ep.graph_module.code.splitlines():
    if "_assert_scalar" in line:
        print(line.split(";")[0].strip())

run = ep.module()
print("n=5:", run(torch.randn(6), torch.tensor(5)).shape)
run(torch.randn(6), torch.tensor(1))  # the other branch was never captured
