#| devices: cpu
#| timeout: 240
import torch
from torch._inductor.utils import run_and_get_code

torch.manual_seed(0)

torch.set_num_threads(2)  # the C++ Inductor writes depends on the thread count: pin it
model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU()).eval()
x = torch.randn(4, 16)

for cpp_wrapper in (False, True):
    torch._dynamo.reset()
    torch._inductor.config.cpp_wrapper = cpp_wrapper
    with torch.no_grad():
        out, codes = run_and_get_code(torch.compile(model), x)
    code = codes[0]
    print(f"cpp_wrapper={cpp_wrapper}:")
    print("  Python call() runs the graph:", "def call(self, args):" in code)
    print("  C++ inductor_entry_impl runs the graph:", "void inductor_entry_impl(" in code)
    print("  wrapper built by CppWrapperCodeCache.load_pybinding:", "CppWrapperCodeCache.load_pybinding(" in code)
    for line in code.splitlines():  # the line that runs the matmul, and the fused relu kernel's call
        if ("addmm" in line and "Original ATen" not in line) or line.strip().startswith("cpp_fused_relu_0("):
            print("   ", line.strip()[:110])
    print("  matches eager:", torch.allclose(out, model(x)))
