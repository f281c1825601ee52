import torch
from torch._dynamo.utils import compilation_time_metrics, compile_times

torch.manual_seed(0)

compilation_time_metrics.clear()  # count only this snippet's compile


def f(x):
    return torch.relu(torch.sin(x) * 2 + 1)


torch.compile(f, backend="aot_eager")(torch.randn(8, requires_grad=True))
headers, values = compile_times(repr="csv", aggregate=True)  # seconds per timed phase
timed = dict(zip(headers, map(float, values)))
for phase in ("_compile.compile_inner", "bytecode_tracing", "OutputGraph.call_user_compiler",
              "create_aot_dispatcher_function", "build_guards"):
    print(f"{phase:32} timed: {phase in timed}")
print("the backend's share is part of the whole:",
      timed["OutputGraph.call_user_compiler"] <= timed["_compile.compile_inner"])
