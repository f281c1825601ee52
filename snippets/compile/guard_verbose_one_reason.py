#| devices: cpu
import logging
import re

import torch
import torch._dynamo.guards  # import it now, so set_logs configures its logger below


class Capture(logging.Handler):
    """Keep each recompile message's failure lines, without torch's source comments."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        for line in record.getMessage().splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line.startswith(("guard ", "- 0/")):
                self.lines.append(line)


torch._logging.set_logs(recompiles_verbose=True)
log = logging.getLogger("torch._dynamo.guards.__recompiles_verbose")
capture = Capture()
log.addHandler(capture)
log.propagate = False

SCALE = 2.0


def f(x, n):
    return x * SCALE + n


compiled = torch.compile(f, backend="eager", dynamic=False)
compiled(torch.ones(4), 1)  # entry 0/0: float32, n == 1, SCALE == 2.0

SCALE = 3.0  # three guards of entry 0/0 now fail at once: dtype, n and SCALE
compiled(torch.ones(4, dtype=torch.float64), 2)
print("\n".join(capture.lines))
