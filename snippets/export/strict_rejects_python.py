#| expect: torch._dynamo.exc.Unsupported
import threading

import torch

torch.manual_seed(0)

lock = threading.Lock()


class Guarded(torch.nn.Module):
    def forward(self, x):
        with lock:  # plain Python: a mutex around the computation
            return x.relu() + 1


x = torch.randn(4)

ep = torch.export.export(Guarded(), (x,))  # default, non-strict: Python just runs
ops = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
print("non-strict graph:", ops)

torch.export.export(Guarded(), (x,), strict=True)  # Dynamo must understand the `with`
