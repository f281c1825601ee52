#| devices: cpu
import torch


def show_backend(gm, example_inputs):
    """Print each node's fake value: a shape with symbols in it, or the symbol itself."""
    for node in gm.graph.nodes:
        if node.op in ("call_function", "call_method"):
            val = node.meta.get("example_value")
            shown = tuple(val.shape) if isinstance(val, torch.Tensor) else val
            print(f"  {node.name:24} -> {shown}")
    return gm.forward


def f(x):
    n = (x > 0).sum().item()  # u0: a count read out of the data
    idx = x.nonzero()  # (u1, 1): a shape read out of the data
    return torch.zeros(n), x[:n], idx


x = torch.tensor([1.0, 0.0, 3.0, -2.0])  # 2 positive, 3 non-zero
with torch._dynamo.config.patch(capture_scalar_outputs=True, capture_dynamic_output_shape_ops=True):
    zeros, head, idx = torch.compile(f, backend=show_backend)(x)
print("shapes at run time:", tuple(zeros.shape), tuple(head.shape), tuple(idx.shape))
