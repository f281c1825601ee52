#| devices: cpu
import torch
from torch._dynamo.utils import counters

torch.manual_seed(0)

dynamo_graphs = []


def counting_backend(gm, example_inputs):
    ops = [str(getattr(n.target, "__name__", n.target)) for n in gm.graph.nodes if n.op in ("call_function", "call_method")]
    dynamo_graphs.append("backward (compiled autograd)" if "AccumulateGrad" in ops else "+".join(ops))
    return torch._dynamo.backends.debugging.aot_eager(gm, example_inputs)


model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))


def step(x):
    loss = model(x).sum()
    loss.backward()
    return loss


for compiled_autograd in (False, True):
    torch._dynamo.reset()
    counters.clear()
    torch._dynamo.config.compiled_autograd = compiled_autograd
    compiled_step = torch.compile(step, backend=counting_backend)
    print(f"compiled_autograd={compiled_autograd}:")
    calls = [("batch 8", 8), ("batch 8 again", 8), ("batch 16", 16), ("batch 32", 32), ("batch 64", 64)]
    for label, batch in calls:
        dynamo_graphs.clear()
        compiled_step(torch.randn(batch, 4))
        print(f"  {label}: Dynamo graphs compiled {dynamo_graphs or 'none'}")
    dynamo_graphs.clear()
    handle = model[0].weight.register_hook(lambda grad: grad * 0.5)
    compiled_step(torch.randn(64, 4))
    handle.remove()
    print(f"  batch 64 with a new hook: Dynamo graphs compiled {dynamo_graphs or 'none'}")
    print(f"  compiled autograd captures: {counters['compiled_autograd']['captures']}")
