#| devices: cpu
import logging
import re

import torch
import torch._dynamo.guards  # import it now, so set_logs configures its logger below


class Capture(logging.Handler):
    def emit(self, record):  # print why a recompile happened: the guard that failed on entry 0/0
        failed = re.findall(r"^\s*- 0/0: (.*?)(?:\s+#.*)?$", record.getMessage(), re.M)
        print(f"    recompiling, failed guard: {failed[0].strip()}")


torch._logging.set_logs(recompiles=True)
recompile_log = logging.getLogger("torch._dynamo.guards.__recompiles")
recompile_log.addHandler(Capture())
recompile_log.propagate = False


def show_backend(gm, example_inputs):
    shapes = [f"{n.name}: {tuple(n.meta['example_value'].shape)}"
              for n in gm.graph.find_nodes(op="placeholder")
              if isinstance(n.meta["example_value"], torch.Tensor)]
    print(f"    compiled a graph for {', '.join(shapes)}")
    return gm.forward


def f(x):
    return (x * 2).sum(dim=0)


for mark in (torch._dynamo.mark_dynamic, torch._dynamo.decorators.mark_unbacked):
    torch._dynamo.reset()
    print(f"{mark.__name__}(x, 0):")
    compiled = torch.compile(f, backend=show_backend)
    for rows in (4, 6, 1):
        x = torch.ones(rows, 3)
        mark(x, 0)
        print(f"  call with x of shape ({rows}, 3)")
        compiled(x)
