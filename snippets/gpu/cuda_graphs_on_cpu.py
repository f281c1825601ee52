import torch
import torch._inductor.config as inductor_config
from torch._inductor import list_mode_options
from torch.utils._python_dispatch import TorchDispatchMode

torch.manual_seed(0)


class CountOps(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(func.__name__)
        return func(*args, **(kwargs or {}))


# Eager: every op is dispatched from Python, one at a time (shapes only, on meta).
model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.GELU(),
                            torch.nn.Linear(64, 64), torch.nn.GELU(),
                            torch.nn.Linear(64, 8)).to("meta")
x = torch.empty(4, 64, device="meta")
with CountOps() as mode:
    model(x)
print(len(mode.ops), "ops dispatched one by one:", " ".join(mode.ops))

# What each torch.compile mode sets for CUDA graphs.
for m in ["default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"]:
    print(f"{m:27s}", list_mode_options(m))
print("triton.cudagraphs default:", inductor_config.triton.cudagraphs)
print("cudagraph_dynamic_shape_warn_limit:", inductor_config.triton.cudagraph_dynamic_shape_warn_limit)
print("graph_partition default:", inductor_config.graph_partition)

try:
    torch.cuda.CUDAGraph()
except RuntimeError as e:
    print("torch.cuda.CUDAGraph() on this build:", e)
