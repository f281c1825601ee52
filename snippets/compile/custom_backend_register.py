#| devices: cpu
#| expect: torch._dynamo.exc.InvalidBackend
import torch
from torch._dynamo import list_backends, register_backend


@register_backend(name="counting")  # the name defaults to the function's __name__
def counting_backend(gm, example_inputs):
    ops = [n for n in gm.graph.nodes if n.op in ("call_function", "call_method")]
    print(f"counting backend: a graph with {len(ops)} op(s)")
    return gm.forward


print("list_backends():", list_backends())
print("'aot_eager' listed by default:", "aot_eager" in list_backends())
print("'aot_eager' with exclude_tags=():", "aot_eager" in list_backends(exclude_tags=()))

compiled = torch.compile(lambda x: torch.cos(x) + 1, backend="counting")
compiled(torch.ones(3))

try:
    register_backend(counting_backend, name="counting")
except AssertionError as e:
    print(f"registering the name again: AssertionError: {e}")

print("-- an unknown name fails at torch.compile(), before any call --")
torch.compile(lambda x: x + 1, backend="countng")
