#| devices: cpu
import logging
import re

import torch
import torch._dynamo.guards  # import it now, so set_logs configures its logger below

torch.manual_seed(0)


class Capture(logging.Handler):
    """Keep the newest failed guard of each recompile, and how many entries failed, not the log."""

    def __init__(self):
        super().__init__()
        self.reasons = []

    def emit(self, record):  # one record per recompile, one "- 2/0: <guard>" line per cache entry
        failed = re.findall(r"^\s*- (\d+/\d+: .*?)(?:\s+#.*)?$", record.getMessage(), re.M)
        self.reasons.append(f"{failed[0]}  ({len(failed)} cache entries failed)")


torch._logging.set_logs(recompiles=True)  # the same switch as TORCH_LOGS="recompiles"
recompile_log = logging.getLogger("torch._dynamo.guards.__recompiles")
capture = Capture()
recompile_log.addHandler(capture)
recompile_log.propagate = False
# Quiet two warnings that are not the point: the profiler hook in Optimizer.step, and the limit.
logging.getLogger("torch._dynamo.variables.ctx_manager").setLevel(logging.ERROR)
logging.getLogger("torch._dynamo.convert_frame").setLevel(logging.ERROR)

graphs = []


def counting_backend(gm, example_inputs):
    """Record each graph's inputs (dtype and shape); run the graph as captured."""
    graphs.append(" ".join(f"{str(a.dtype)[6:]}{list(a.shape)}" for a in example_inputs))
    return gm.forward


def train(label, lr, dynamic=None, steps=10):
    torch._dynamo.reset()
    graphs.clear()
    capture.reasons.clear()
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=steps)

    @torch.compile(backend=counting_backend, dynamic=dynamic)
    def opt_step():
        opt.step()

    x = torch.randn(8, 4)
    for _ in range(steps):
        model(x).sum().backward()
        opt_step()
        sched.step()  # writes a new value into opt.param_groups[0]["lr"]
    print(f"{label}: {steps} steps, {len(graphs)} graph(s) compiled")
    for i, inputs in enumerate(graphs):
        print(f"  graph {i} inputs: {inputs}")
    for reason in capture.reasons:
        print(f"  recompiled, failed guard: {reason}")
    print(f"  lr after the loop: {opt.param_groups[0]['lr']!r}")


train("float lr, dynamic=None (default)", 0.01)
train("float lr, dynamic=False", 0.01, dynamic=False)
train("tensor lr", torch.tensor(0.01))
