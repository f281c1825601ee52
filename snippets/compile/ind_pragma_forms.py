#| devices: cpu
#| timeout: 240
import os
import re

import torch
from torch._inductor.utils import run_and_get_code

torch.manual_seed(0)


def f(x):
    return torch.sin(x) * 2 + 1


x = torch.randn(256, 1024)  # enough work for a parallel loop
for label, threads in (("os.cpu_count()", os.cpu_count()), ("os.cpu_count() + 1", os.cpu_count() + 1)):
    torch._dynamo.reset()
    torch.set_num_threads(threads)
    _, (code,) = run_and_get_code(torch.compile(f), x)
    pragmas = sorted(set(re.findall(r"#pragma omp parallel.*", code)))
    # the count is written as N, so that the record is the same on any machine
    print(f"threads = {label}: {[p.replace(f'({threads})', '(N)') for p in pragmas]}")
