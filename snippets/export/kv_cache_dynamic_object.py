import warnings

import torch
import torch.utils._pytree as pytree
from torch.export import Dim

torch.manual_seed(0)

warnings.filterwarnings("ignore", message=".*LeafSpec")  # internal FutureWarning in 2.13


class DynamicCache:
    """A growing cache in the style of Hugging Face's: lists of tensors, extended with cat."""

    def __init__(self, keys=(), values=()):
        self.keys, self.values = list(keys), list(values)

    def update(self, k, v):
        self.keys[0] = torch.cat([self.keys[0], k], dim=1)
        self.values[0] = torch.cat([self.values[0], v], dim=1)
        return self.keys[0], self.values[0]


class Attention(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = torch.nn.Linear(8, 24)

    def forward(self, x, cache):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        k, v = cache.update(k, v)
        return torch.softmax(q @ k.transpose(1, 2), dim=-1) @ v, cache


def past(n):
    return DynamicCache([torch.randn(1, n, 8)], [torch.randn(1, n, 8)])


def try_export(strict, **kw):
    try:
        ep = torch.export.export(Attention(), (torch.randn(1, 1, 8), past(4)), strict=strict, **kw)
    except Exception as e:
        print(f"  strict={strict}: {type(e).__name__}: {str(e).splitlines()[0]}")
        return None
    print(f"  strict={strict}: inputs {ep.graph_signature.user_inputs}",
          f"outputs {ep.graph_signature.user_outputs}")
    return ep


print("cache class unknown to pytree:")
for strict in (True, False):
    try_export(strict)

pytree.register_pytree_node(
    DynamicCache,
    lambda c: ((c.keys, c.values), None),
    lambda children, _: DynamicCache(*children),
    flatten_with_keys_fn=lambda c: (((pytree.GetAttrKey("keys"), c.keys),
                                     (pytree.GetAttrKey("values"), c.values)), None),
)
length = Dim("past", max=64)
print("registered as a pytree node, past length dynamic:")
for strict in (True, False):
    ep = try_export(strict, dynamic_shapes=(None, ([{1: length}], [{1: length}])))

out, new = ep.module()(torch.randn(1, 1, 8), past(10))
print("called with 10 past tokens: new cache", tuple(new.keys[0].shape))
