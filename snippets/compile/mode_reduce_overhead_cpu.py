#| timeout: 240
import os
import tempfile

import torch
from torch._dynamo.utils import counters
from torch._inductor.utils import run_and_get_code

torch.manual_seed(0)

os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp()  # cold cache, also under plain python


def f(x):
    return torch.relu(torch.sin(x) * 2 + 1)


x = torch.randn(1024)  # a CPU tensor
codes = {}
for mode in ("default", "reduce-overhead"):
    counters.clear()
    compiled = torch.compile(f, mode=mode)
    out, (codes[mode],) = run_and_get_code(compiled, x)
    for _ in range(3):
        out = compiled(x)
    print(f"mode={mode!r}: matches eager {torch.allclose(out, f(x))}, "
          f"cudagraph_skips {counters['inductor']['cudagraph_skips']}")

def lines(code):  # the output code's lines, minus its first line (a per-process graph counter)
    return {line.strip() for line in code.splitlines()[1:]}


print("lines only in default:", sorted(lines(codes["default"]) - lines(codes["reduce-overhead"])))
print("lines only in reduce-overhead:", sorted(lines(codes["reduce-overhead"]) - lines(codes["default"])))
