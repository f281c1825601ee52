#| expect: torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode
import torch
from torch.export import export


class KeepFirst(torch.nn.Module):
    def forward(self, x, k):
        n = k.item()  # a value read from a tensor: unknown while tracing
        if n > x.shape[0]:  # Python needs a real True/False here
            raise ValueError("k is larger than the input")
        return x[:n] * 2


torch.manual_seed(0)
export(KeepFirst(), (torch.randn(8), torch.tensor(3)))
