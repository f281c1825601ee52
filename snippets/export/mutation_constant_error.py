#| expect: RuntimeError
import warnings

import torch

warnings.filterwarnings("ignore", message=".*LeafSpec")  # internal FutureWarning in 2.13


class RunningSum(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.total = torch.zeros(2)  # plain attribute: not register_buffer

    def forward(self, x):
        self.total.add_(x)
        return x + 1


ep = torch.export.export(RunningSum(), (torch.ones(2),))
print("export() accepted it:")
print("  inputs:", [(s.kind.name, s.target) for s in ep.graph_signature.input_specs])
print("  ops:   ", [f"{n.target}{n.args}" for n in ep.graph.nodes if n.op == "call_function"])

ep.run_decompositions()  # functionalization has nowhere to write the new value
