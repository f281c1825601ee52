#| devices: cpu
import warnings

import torch

warnings.filterwarnings("ignore", message=".*LeafSpec")  # internal FutureWarning in 2.13


class Step(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("calls", torch.zeros(()))

    def forward(self, x, n: int):
        self.calls.add_(1)  # mutates a buffer
        return x * n + torch.tensor([1.0, 2.0])  # a tensor made inside forward


def show(title, ep):
    print(title)
    print("  inputs: ", [(s.kind.name, s.arg.name, s.target) for s in ep.graph_signature.input_specs])
    print("  outputs:", [(s.kind.name, s.target) for s in ep.graph_signature.output_specs])
    print("  ops:    ", [str(n.target) for n in ep.graph.nodes if n.op == "call_function"])


ep = torch.export.export(Step(), (torch.ones(2), 3))
show("export():", ep)
show("run_decompositions():", ep.run_decompositions())
print("ep.state_dict:", list(ep.state_dict), " ep.constants:", list(ep.constants))

m = ep.module()
print("n=3:", m(torch.ones(2), 3))
try:
    m(torch.ones(2), 4)  # the int was specialised, and the module checks it
except AssertionError as e:
    print("n=4: AssertionError:", e)
