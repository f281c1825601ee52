import logging

import torch
import torch._dynamo.symbolic_convert  # the module that owns the graph_breaks logger


def f(x):
    x = torch.sin(x)
    print("Python ran the print")   # graph break
    x = torch.cos(x)
    if torch.sum(x) > 0:            # graph break
        x = x + 1
    return x * 2


# The same switch as TORCH_LOGS="graph_breaks". Each break is one long log record; this
# handler prints its first two lines instead of sending the whole record to stderr.
torch._logging.set_logs(graph_breaks=True)
log = logging.getLogger("torch._dynamo.symbolic_convert.__graph_breaks")


class FirstTwoLines(logging.Handler):
    def emit(self, record):
        for line in record.getMessage().splitlines()[:2]:
            print("  [graph_breaks]", line)


log.addHandler(FirstTwoLines())
log.propagate = False

compiled = torch.compile(f, backend="eager")
print("first call:")
torch.manual_seed(0)
compiled(torch.randn(4))
print("second call (cached code, nothing traced, nothing logged):")
compiled(torch.randn(4))
torch._logging.set_logs()  # back to the defaults
