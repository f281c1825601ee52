import textwrap
import warnings

import torch
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
layer = torch.nn.Linear(4, 4)
x = torch.randn(2, 4)  # an input batch: it does not require grad

for kwargs in ({}, {"use_reentrant": True}, {"use_reentrant": False}):
    layer.zero_grad()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = checkpoint(layer, x, **kwargs)
    print(f"checkpoint(layer, x, {', '.join(f'{k}={v}' for k, v in kwargs.items())})")
    for w in caught:
        print(textwrap.fill(f"warning: {w.message}", 96, initial_indent="  ", subsequent_indent="    "))
    print(f"  out.grad_fn: {type(out.grad_fn).__name__ if out.grad_fn else None}")
    if out.requires_grad:
        out.sum().backward()
    print(f"  layer.weight.grad is None: {layer.weight.grad is None}")
