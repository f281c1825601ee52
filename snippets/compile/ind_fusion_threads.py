import os
import re
import tempfile

import torch
from torch._inductor.utils import run_and_get_code

torch.manual_seed(0)

os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp()  # cold cache, also under plain python


def f(x):
    return torch.softmax(x, dim=-1) * 2 + 1  # reductions, then pointwise


x = torch.randn(256, 512)
for threads in (1, 4):
    torch.set_num_threads(threads)
    out, (code,) = run_and_get_code(torch.compile(f), x)
    kernels = re.findall(r"^(\w+) = async_compile\.\w+\(", code, flags=re.M)
    print(f"torch.get_num_threads() = {threads}:")
    print("  kernels:", kernels)
    print("  '#pragma omp parallel' in the C++:", "#pragma omp parallel" in code)
    print("  same result as eager:", torch.allclose(out, f(x), atol=1e-6))
