#| devices: cpu
import logging

import torch

torch.manual_seed(0)

# Hide a log line that export's error classifier prints for each failed export.
logging.getLogger("torch.export").setLevel(logging.CRITICAL)


def export_cond(pred_fn, true_fn, false_fn, operands_fn=lambda x: (x,)):
    class M(torch.nn.Module):
        def forward(self, x):
            return torch.cond(pred_fn(x), true_fn, false_fn, operands_fn(x))

    return torch.export.export(M(), (torch.randn(4),))


# 1. Both branches must return the same structure: a 2-tuple against a 1-tuple.
try:
    export_cond(lambda x: x.sum() > 0, lambda t: (t * 2, t * 3), lambda t: (t * 2,))
except Exception as e:
    lines = str(e).splitlines()
    print(type(e).__name__ + ":", lines[2], "|", lines[4].strip())

# 2. Operands must be tensors (in nested tuples, lists or dicts).
try:
    export_cond(lambda x: x.sum() > 0, lambda t, n: t * n, lambda t, n: t + n,
                operands_fn=lambda x: (x, 3))
except RuntimeError as e:
    print(type(e).__name__ + ":", e)

# 3. A one-element tensor that is not bool is accepted as the predicate in 2.13.
ep = export_cond(lambda x: x.sum(), lambda t: t * 2, lambda t: t - 1)
pred = next(n for n in ep.graph.nodes if n.target is torch.ops.higher_order.cond).args[0]
print("float predicate:", pred.meta["val"].dtype)
m = ep.module()
for x in (torch.ones(4), torch.tensor([0.5, 0.0, 0.0, 0.0]), torch.tensor([1.0, -1.0, 0.0, 0.0])):
    print(f"  sum={x.sum().item():4}: ", m(x))
