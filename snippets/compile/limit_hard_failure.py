#| devices: cpu
#| expect: torch._dynamo.exc.FailOnRecompileLimitHit
import logging

import torch

logging.getLogger("torch._dynamo.convert_frame").setLevel(logging.ERROR)  # hide the warning


def repeat_add(x, steps):
    for _ in range(steps):
        x = x + 1
    return x


x = torch.zeros(2)

# 1. Globally: turn the silent fallback into an error.
with torch._dynamo.config.patch(fail_on_recompile_limit_hit=True, recompile_limit=2):
    compiled = torch.compile(repeat_add, backend="eager")
    try:
        for steps in range(1, 5):
            compiled(x, steps)
            print(f"steps={steps}: ok")
    except torch._dynamo.exc.FailOnRecompileLimitHit as e:
        print(f"steps={steps}: {type(e).__name__}: {e}")

# 2. Per call: torch.compile(recompile_limit=...); with fullgraph=True hitting it raises.
torch._dynamo.reset()
compiled = torch.compile(repeat_add, backend="eager", fullgraph=True, recompile_limit=3)
for steps in range(1, 6):
    compiled(x, steps)
    print(f"steps={steps}: ok")
