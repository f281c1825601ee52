#| devices: cpu, cuda
import os
import re
import tempfile

import torch
from torch._inductor.utils import run_and_get_code

torch.manual_seed(0)

os.environ["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp()  # cold cache, also under plain python
torch.set_num_threads(2)  # the C++ Inductor writes depends on the thread count: pin it
device = os.environ.get("SNIPPET_DEVICE", "cpu")


def block(x, w):
    y = x @ w                                # a matmul
    return torch.relu(torch.sin(y) * 2 + 1)  # then four pointwise ops


x = torch.randn(64, 128, device=device)
w = torch.randn(128, 32, device=device)
out, codes = run_and_get_code(torch.compile(block), x, w)  # default backend: Inductor
code = codes[0]  # the output code: one Python module per compiled graph

kernels = re.findall(r"^(\w+) = async_compile\.(\w+)\(", code, flags=re.M)
print("output code modules:", len(codes))
print("kernels Inductor generated:", len(kernels))
for name, how in kernels:
    source = code.split(f"{name} = async_compile.")[1].split("''')")[0]
    marks = [m for m in ("#pragma omp", "at::vec::Vectorized", "@triton.jit") if m in source]
    print(f"  {name} via async_compile.{how}, contains {marks}")
print("library calls:", sorted(set(re.findall(r"extern_kernels\.\w+", code))))

print("what call() does (the lines that check, allocate, compute):")
body = code.split("def call(self, args):")[1].split("return (")[0]
for line in body.splitlines():
    if any(m in line for m in ("assert_size_stride", "empty_strided", "Original ATen", "# reuse",
                               "extern_kernels.")) or any(line.strip().startswith(n) for n, _ in kernels):
        print("   ", line.strip())
print("module can time itself (benchmark_compiled_module):", "def benchmark_compiled_module" in code)
print("same result as eager:", torch.allclose(out, block(x, w), atol=1e-5))
