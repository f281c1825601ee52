#| devices: cpu
import json
import logging
import re

import torch
import torch._dynamo.guards  # import it now, so set_logs configures its logger below

torch.manual_seed(0)

SCALE = 2.0  # a global read inside the function


class Capture(logging.Handler):
    """Keep the guard log's records instead of printing them to stderr."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.extend(record.getMessage().splitlines())


torch._logging.set_logs(guards=True)  # the same switch as TORCH_LOGS="guards"
guard_log = logging.getLogger("torch._dynamo.guards.__guards")
capture = Capture()
guard_log.addHandler(capture)
guard_log.propagate = False


def f(x, n, cfg):
    if cfg["act"] == "relu":
        x = x.relu()
    return x * n * SCALE


torch.compile(f, backend="eager")(torch.randn(2, 4), 3, {"act": "relu"})

# Print the leaf guards (the checks), without the source-line comments torch appends.
for line in capture.lines:
    leaf = line.lstrip("| ")
    if not leaf.startswith("+- ") or "GuardManager" in leaf:
        continue
    kind, _, check = leaf[3:].partition(": ")
    check = check.split("  #")[0].strip()
    check = re.sub(r"___check_type_id\((.*?), \d+\)", r"___check_type_id(\1, <id>)", check)
    if kind == "GLOBAL_STATE":  # a JSON snapshot of global torch state; print only its keys
        state = json.loads(check.split(" against ", 1)[1])
        check = "keys: " + ", ".join(state)
    print(f"{kind:32} {check}")
