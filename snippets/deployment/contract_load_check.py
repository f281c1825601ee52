#| devices: cpu
import torch
from torch.export import Dim

torch.manual_seed(0)


class Scorer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 4)

    def forward(self, tokens, mask):
        return self.fc(tokens) * mask.unsqueeze(-1)


batch = Dim("batch", min=1, max=64)
ep = torch.export.export(Scorer().eval(), (torch.randn(3, 16), torch.ones(3)),
                         dynamic_shapes={"tokens": {0: batch}, "mask": {0: batch}})
torch.export.save(ep, "scorer.pt2")


def read_contract(ep):
    """name -> (dtype, device, dims); a dim is an int or the sympy symbol of a dynamic size."""
    contract = {}
    for node in ep.graph.find_nodes(op="placeholder"):
        if node.name in ep.graph_signature.user_inputs:
            val = node.meta["val"]
            dims = [d.node.expr if isinstance(d, torch.SymInt) else d for d in val.shape]
            contract[node.name] = (val.dtype, val.device, dims)
    return contract, ep.range_constraints


def check_inputs(contract, ranges, **inputs):
    if set(inputs) != set(contract):
        raise ValueError(f"expected inputs {sorted(contract)}, got {sorted(inputs)}")
    bound = {}  # symbol -> (size, where it was first seen)
    for name, (dtype, device, dims) in contract.items():
        t = inputs[name]
        if t.dtype != dtype or t.device.type != device.type:
            raise ValueError(f"{name}: expected {dtype} on {device.type}, got {t.dtype} on {t.device.type}")
        if t.dim() != len(dims):
            raise ValueError(f"{name}: expected {len(dims)} dims, got shape {tuple(t.shape)}")
        for i, (want, got) in enumerate(zip(dims, t.shape)):
            where = f"{name}.shape[{i}]"
            if isinstance(want, int):
                if got != want:
                    raise ValueError(f"{where} must be {want}, got {got}")
                continue
            lo, hi = ranges[want].lower, ranges[want].upper
            if not lo <= got <= hi:
                raise ValueError(f"{where} = {got} is outside the exported range [{lo}, {hi}]")
            first = bound.setdefault(want, (got, where))
            if first[0] != got:
                raise ValueError(f"{where} = {got} must equal {first[1]} = {first[0]}")


loaded = torch.export.load("scorer.pt2")
contract, ranges = read_contract(loaded)
cases = {
    "good batch of 8": dict(tokens=torch.randn(8, 16), mask=torch.ones(8)),
    "float64 tokens": dict(tokens=torch.randn(8, 16, dtype=torch.float64), mask=torch.ones(8)),
    "15 features": dict(tokens=torch.randn(8, 15), mask=torch.ones(8)),
    "batch 100": dict(tokens=torch.randn(100, 16), mask=torch.ones(100)),
    "batches disagree": dict(tokens=torch.randn(8, 16), mask=torch.ones(7)),
    "mask missing": dict(tokens=torch.randn(8, 16)),
}
for label, inputs in cases.items():
    try:
        check_inputs(contract, ranges, **inputs)
        print(f"{label:17} accepted")
    except ValueError as e:
        print(f"{label:17} refused: {e}")

# The exported module's own checks, on the same mistakes (it takes tensors by position, as exported):
for label in ("float64 tokens", "batch 100", "batches disagree"):
    try:
        loaded.module()(*cases[label].values())
        print(f"ep.module() on {label}: ran")
    except Exception as e:
        print(f"ep.module() on {label}:", type(e).__name__ + ":", str(e).splitlines()[0])
