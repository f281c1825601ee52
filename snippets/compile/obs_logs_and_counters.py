#| devices: cpu
import contextlib
import io
import re

import torch
from torch._dynamo.utils import counters
from torch._logging._internal import log_registry

torch.manual_seed(0)


def f(x):
    y = torch.sin(x)
    print("a graph break")
    return y * 2


stderr = io.StringIO()
with contextlib.redirect_stderr(stderr):  # the log handler writes where stderr was when set_logs ran
    torch._logging.set_logs(graph_breaks=True, recompiles=True, guards=True)  # TORCH_LOGS="graph_breaks,recompiles,guards"
    compiled = torch.compile(f, backend="eager")  # Dynamo only
    compiled(torch.randn(4))
    compiled(torch.randn(8))  # a new size: a recompile
    torch._logging.set_logs()  # back to the defaults
log = stderr.getvalue().splitlines()

print("artifacts torch._logging knows:", len(log_registry.artifact_names))
print("artifacts that logged:", sorted(set(re.findall(r"\[__(\w+)\]", "\n".join(log)))))
print("graph_breaks, first reason line:", next(l for l in log if "Explanation:" in l).split("]  ", 1)[1].strip())
print("recompiles:")
for line in log:
    if "[__recompiles]" in line and ("Recompiling" in line or " - " in line):
        print("  ", line.split("[__recompiles] ", 1)[1].strip())
print("guards, the TENSOR_MATCH guard on x in each compile:")
for line in log:
    if "[__guards]" in line and "TENSOR_MATCH" in line and "L['x']" in line:
        print("   check_tensor(L['x'], ...", re.search(r"size=\[.*?\], stride=\[.*?\]", line).group(0) + ")")
print("counters['stats']:", dict(counters["stats"]))
print("counters['graph_break'] entries:", len(counters["graph_break"]), "counted", sum(counters["graph_break"].values()), "times")
