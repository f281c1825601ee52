#| expect: torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode
import warnings

import torch


class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # the branch depends on the values in x
            return x * 2
        return -x


model = Gate()
pos, neg = torch.ones(3), -torch.ones(3)

# torch.jit.trace records the branch taken for `pos` and drops the `if`.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    traced = torch.jit.trace(model, (pos,))
for text in sorted({f"{w.category.__name__}: {str(w.message).split('. ')[0]}" for w in caught}):
    print("trace warned ->", text)
print("eager  on neg:", model(neg))
print("traced on neg:", traced(neg))  # silently wrong: still x * 2

# torch.export refuses the same code at export time.
torch.export.export(model, (pos,))
