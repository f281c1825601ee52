#| devices: cpu
#| timeout: 240
import warnings

import torch
from torch._inductor import select_algorithm

torch.manual_seed(0)

torch.set_num_threads(2)
# Autotuning prints a table of timings to stderr; they vary by run, so keep them off the output.
select_algorithm.PRINT_AUTOTUNE = False
torch._inductor.config.max_autotune_report_choices_stats = False
warnings.filterwarnings("ignore", message="TypedStorage is deprecated")

tuned = []  # (op, the candidates benchmarked for it), from Inductor's feedback hook


def feedback(timings, name, input_nodes, choices, *rest):
    tuned.append((name, sorted(c.name for c in choices)))


select_algorithm.add_feedback_saver(feedback)
model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU()).eval()
x = torch.randn(32, 64)
torch._inductor.config.max_autotune = True  # what mode="max-autotune" sets, among others

for freezing in (False, True):
    torch._dynamo.reset()
    tuned.clear()
    torch._inductor.config.freezing = freezing
    with torch.no_grad():
        out = torch.compile(model)(x)
    print(f"max_autotune=True, freezing={freezing}:")
    print("  ops autotuned:", tuned or "none")
    print("  matches eager:", torch.allclose(out, model(x), atol=1e-5))
