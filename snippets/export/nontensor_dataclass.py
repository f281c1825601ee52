#| expect: ValueError
from dataclasses import dataclass

import torch


@dataclass
class Batch:
    feats: torch.Tensor
    mask: torch.Tensor
    temperature: float = 1.0


torch.export.register_dataclass(Batch)  # Batch is now a pytree node


class Scorer(torch.nn.Module):
    def forward(self, b: Batch):
        return (b.feats * b.mask) / b.temperature


ep = torch.export.export(Scorer(), (Batch(torch.ones(2), torch.ones(2), 2.0),))
for spec in ep.graph_signature.input_specs:
    print(spec.arg)
print("run:", ep.module()(Batch(torch.full((2,), 4.0), torch.ones(2), 2.0)))

try:
    torch.export.save(ep, "scorer.pt2")
except NotImplementedError as e:
    print("save: NotImplementedError:", str(e).split(". ")[0])


@dataclass
class Unregistered:
    feats: torch.Tensor


class Plain(torch.nn.Module):
    def forward(self, b: Unregistered):
        return b.feats + 1


torch.export.export(Plain(), (Unregistered(torch.ones(2)),))
