#| devices: cpu
import logging
import re

import torch
import torch._dynamo.guards  # import it now, so set_logs configures its logger below


class Capture(logging.Handler):
    """Keep, for each recompile, why the first compiled entry (0/0) no longer matched."""

    def __init__(self):
        super().__init__()
        self.reasons = []

    def emit(self, record):
        failed = re.findall(r"^\s*- 0/0: (.*?)(?:\s+#.*)?$", record.getMessage(), re.M)
        self.reasons.append(failed[0].strip() if failed else "?")


torch._logging.set_logs(recompiles=True)
recompile_log = logging.getLogger("torch._dynamo.guards.__recompiles")
capture = Capture()
recompile_log.addHandler(capture)
recompile_log.propagate = False

SCALE = 2.0


def f(x):
    return x * SCALE


compiled = torch.compile(f, backend="eager")
x = torch.ones(4)
compiled(x)  # compile 0/0: float32, no grad, SCALE == 2.0, grad mode on

changes = {
    "float64 input": lambda: compiled(x.double()),
    "requires_grad input": lambda: compiled(x.clone().requires_grad_()),
    "non-contiguous input": lambda: compiled(torch.ones(4, 2).t()[0]),
    "under torch.no_grad()": lambda: torch.no_grad()(compiled)(x),
}
for label, call in changes.items():
    before = len(capture.reasons)
    call()
    print(f"{label:22} -> {capture.reasons[before] if len(capture.reasons) > before else 'no recompile'}")

SCALE = 3.0  # a global that the graph read as a constant
compiled(x)
print(f"{'global SCALE = 3.0':22} -> {capture.reasons[-1]}")
