#| devices: cpu
import logging

import torch


class Capture(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


# The recompile-limit warning is an ordinary logging.warning from torch._dynamo.convert_frame.
warn_log = logging.getLogger("torch._dynamo.convert_frame")
capture = Capture()
warn_log.addHandler(capture)
warn_log.propagate = False

compiles, graph_runs = [], []


def counting_backend(gm, example_inputs):
    compiles.append(len(compiles))

    def run(*args):
        graph_runs.append(1)
        return gm.forward(*args)

    return run


def repeat_add(x, steps):
    for _ in range(steps):  # a Python loop: Dynamo unrolls it, so `steps` is specialized
        x = x + 1
    return x


print("recompile_limit:", torch._dynamo.config.recompile_limit)
compiled = torch.compile(repeat_add, backend=counting_backend)
x = torch.zeros(2)
for steps in range(1, 12):
    runs_before = len(graph_runs)
    out = compiled(x, steps)
    ran = "compiled graph" if len(graph_runs) > runs_before else "eager"
    print(f"steps={steps:2}: compiles so far {len(compiles)}, ran {ran}, correct {out[0].item() == steps}")

runs_before = len(graph_runs)
compiled(x, 3)  # a value compiled before the limit was hit
print("steps= 3 again: ran", "compiled graph" if len(graph_runs) > runs_before else "eager")

print("warnings logged:", len(capture.messages))
first, _, last_reason = capture.messages[0].splitlines()[:3]
print(first)
print(last_reason.split("  #")[0])  # drop the source-line comment
