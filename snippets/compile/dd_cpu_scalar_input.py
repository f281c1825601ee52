#| devices: cpu
import logging
import re

import torch
import torch._dynamo.guards  # import it now, so set_logs configures its logger below
from torch.fx.experimental.symbolic_shapes import has_free_unbacked_symbols


class Capture(logging.Handler):
    def emit(self, record):  # print the guard on entry 0/0 that failed
        failed = re.findall(r"^\s*- 0/0: (.*?)(?:\s+#.*)?$", record.getMessage(), re.M)
        print(f"    recompiling, failed guard: {failed[0].strip()}")


torch._logging.set_logs(recompiles=True)
recompile_log = logging.getLogger("torch._dynamo.guards.__recompiles")
recompile_log.addHandler(Capture())
recompile_log.propagate = False


def show_backend(gm, example_inputs):
    items = [n.meta["example_value"] for n in gm.graph.nodes if n.target == "item"]
    print(f"    compiled a graph; item() is {items}")
    return gm.forward


def head(x, k):
    n = k.item()
    if n > 2:
        return x[:n] * 2
    return x


torch._dynamo.config.capture_scalar_outputs = True
compiled = torch.compile(head, backend=show_backend)
x = torch.arange(6.0)
for k in (4, 5, 1):
    print(f"  k = torch.tensor({k}), a 0-d int64 input on the CPU")
    compiled(x, torch.tensor(k))


# Whether item() is backed depends on the input's dtype.
def kind_backend(gm, example_inputs):
    for v in [n.meta["example_value"] for n in gm.graph.nodes if n.target == "item"]:
        print(f"    item() is {v}, {'unbacked' if has_free_unbacked_symbols(v) else 'backed'}")
    return gm.forward


def scale(x, k):
    return x * k.item()


print("x * k.item(), one compile per dtype of k:")
for dtype in (torch.int64, torch.int32, torch.int16, torch.float64, torch.float32):
    torch._dynamo.reset()
    print(f"  k = torch.tensor(4, dtype={dtype}), a 0-d input on the CPU")
    torch.compile(scale, backend=kind_backend)(x, torch.tensor(4, dtype=dtype))
