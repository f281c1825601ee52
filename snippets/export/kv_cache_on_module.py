import warnings

import torch

torch.manual_seed(0)

warnings.filterwarnings("ignore", message=".*LeafSpec")  # internal FutureWarning in 2.13


class DynamicCache:
    def __init__(self, n):
        self.keys, self.values = [torch.randn(1, n, 8)], [torch.randn(1, n, 8)]

    def update(self, k, v):
        self.keys[0] = torch.cat([self.keys[0], k], dim=1)
        self.values[0] = torch.cat([self.values[0], v], dim=1)
        return self.keys[0], self.values[0]


class Attention(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = torch.nn.Linear(8, 24)
        self.cache = DynamicCache(4)  # a Python object on the module, not a buffer

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        k, v = self.cache.update(k, v)
        return torch.softmax(q @ k.transpose(1, 2), dim=-1) @ v


for strict in (True, False):
    model = Attention()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ep = torch.export.export(model, (torch.randn(1, 1, 8),), strict=strict)
    print(f"strict={strict}: export succeeded")
    for w in caught:
        if "LeafSpec" not in str(w.message):
            print("  warning:", w.message)
    print("  cache inputs:", [(s.kind.name, s.target) for s in ep.graph_signature.input_specs
                              if s.kind.name != "PARAMETER"])
    print("  mutation outputs:", len(ep.graph_signature.buffers_to_mutate))
    print("  model.cache after export:", type(model.cache.keys[0]).__name__,
          tuple(model.cache.keys[0].shape))
    m = ep.module()
    for _ in range(3):
        y = m(torch.randn(1, 1, 8))
    cats = [tuple(n.meta["val"].shape) for n in ep.graph.nodes if n.target == torch.ops.aten.cat.default]
    print("  cat results in the graph:", cats, "| model.cache after 3 calls:",
          tuple(model.cache.keys[0].shape))
