#| devices: cpu
import logging
import re

import torch
import torch._dynamo.guards  # import it now, so set_logs configures its logger below


class Capture(logging.Handler):
    """Keep the recompile log's guard-failure lines instead of printing them to stderr."""

    def __init__(self):
        super().__init__()
        self.reasons = []

    def emit(self, record):  # one record per recompile; one "- 0/0: <guard>" line per cache entry
        failed = re.findall(r"^\s*- (\d+/\d+: .*?)(?:\s+#.*)?$", record.getMessage(), re.M)
        self.reasons.append(", ".join(failed))


torch._logging.set_logs(recompiles=True)  # the same switch as TORCH_LOGS="recompiles"
recompile_log = logging.getLogger("torch._dynamo.guards.__recompiles")
capture = Capture()
recompile_log.addHandler(capture)
recompile_log.propagate = False

graphs = []


def counting_backend(gm, example_inputs):
    graphs.append([type(a).__name__ for a in example_inputs])  # what each graph input is
    return gm.forward


def scale(x, n):
    return x * n


def run(label, dynamic, values, as_tensor=False):
    torch._dynamo.reset()
    graphs.clear()
    capture.reasons.clear()
    compiled = torch.compile(scale, backend=counting_backend, dynamic=dynamic)
    x = torch.ones(3)
    for n in values:
        compiled(x, torch.tensor(n) if as_tensor else n)
    print(f"{label}: {len(values)} calls, {len(graphs)} graph(s) compiled")
    for i, inputs in enumerate(graphs):
        print(f"  graph {i} inputs: {inputs}")
    for reason in capture.reasons:
        print(f"  recompiled, failed guards: {reason}")


values = [2, 3, 4, 5]
run("int n, dynamic=None (default)", None, values)
run("int n, dynamic=False", False, values)
run("n as a 0-d tensor", None, values, as_tensor=True)
