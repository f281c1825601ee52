#| expect: RuntimeError
import numpy as np
import torch

torch.manual_seed(0)


# NumPy is opaque to export's tracer, so hide it inside a custom operator.
@torch.library.custom_op("demo::clamp_min_np", mutates_args=())
def clamp_min_np(x: torch.Tensor, lo: float) -> torch.Tensor:
    out = np.maximum(x.detach().cpu().numpy(), lo)
    return torch.from_numpy(out).to(x.device)


class Model(torch.nn.Module):
    def forward(self, x):
        return clamp_min_np(x, 0.0) + 1


print("eager:", Model()(torch.tensor([-1.0, 2.0])))  # the real kernel runs fine
# Export runs the model on fake tensors, and this op has no fake implementation.
torch.export.export(Model(), (torch.randn(3),))
