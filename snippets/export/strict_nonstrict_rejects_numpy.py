#| expect: RuntimeError
import numpy as np
import torch


class NumpyStep(torch.nn.Module):
    def forward(self, x):
        y = np.tanh(x.numpy())  # a NumPy call in the middle of forward()
        return torch.from_numpy(y) * 2


x = torch.linspace(-1, 1, 3)

ep = torch.export.export(NumpyStep(), (x,), strict=True)
ops = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
print("strict graph:", ops)
print("matches eager:", torch.allclose(ep.module()(x), NumpyStep()(x)))

torch.export.export(NumpyStep(), (x,))  # non-strict: x is a FakeTensor, it has no data
