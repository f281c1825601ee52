import warnings

import numpy as np
import torch
from torch.export import Dim

torch.manual_seed(0)

# Hide an internal pytree FutureWarning that run_decompositions() triggers in torch 2.13.
warnings.filterwarnings("ignore", category=FutureWarning)


@torch.library.custom_op("demo::clamp_min_np", mutates_args=())
def clamp_min_np(x: torch.Tensor, lo: float) -> torch.Tensor:
    out = np.maximum(x.detach().cpu().numpy(), lo)
    return torch.from_numpy(out).to(x.device)


@clamp_min_np.register_fake
def _(x, lo):
    # Describe the output only: same shape, dtype and device as x. No data.
    return torch.empty_like(x)


class Model(torch.nn.Module):
    def forward(self, x):
        return clamp_min_np(x, 0.0) + 1


print(torch.ops.demo.clamp_min_np.default._schema)  # inferred from the type hints
ep = torch.export.export(Model(), (torch.randn(3),), dynamic_shapes={"x": {0: Dim.DYNAMIC}})
print(ep.graph_module.code.strip())
# The op is one opaque node: decompositions leave it alone.
core = ep.run_decompositions()
print([str(n.target) for n in core.graph.nodes if n.op == "call_function"])
print(ep.module()(torch.tensor([-2.0, 0.5, -1.0, 3.0, -4.0])))
# opcheck compares the fake against the real kernel (and more).
print(torch.library.opcheck(clamp_min_np, (torch.randn(4), 0.0)))
