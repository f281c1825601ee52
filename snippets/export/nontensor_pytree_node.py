#| devices: cpu
import torch
import torch.utils._pytree as pytree


class Pair:  # a plain class, not a dataclass
    def __init__(self, a, b):
        self.a, self.b = a, b


class KeyedPair(Pair):
    pass


class Add(torch.nn.Module):
    def forward(self, p):
        return p.a + p.b


def flatten(p):
    return [p.a, p.b], None


# Registered without flatten_with_keys_fn: enough for pytree, not for export.
pytree.register_pytree_node(Pair, flatten, lambda children, _: Pair(*children))
try:
    torch.export.export(Add(), (Pair(torch.ones(2), torch.ones(2)),))
except ValueError as e:
    print("ValueError:", e)

# With flatten_with_keys_fn, export can name each leaf.
pytree.register_pytree_node(
    KeyedPair,
    flatten,
    lambda children, _: KeyedPair(*children),
    flatten_with_keys_fn=lambda p: (
        [(pytree.GetAttrKey("a"), p.a), (pytree.GetAttrKey("b"), p.b)], None
    ),
)
ep = torch.export.export(Add(), (KeyedPair(torch.ones(2), torch.ones(2)),))
print("graph inputs:", [n.name for n in ep.graph.nodes if n.op == "placeholder"])
print("run:", ep.module()(KeyedPair(torch.ones(2), torch.full((2,), 2.0))))
