import warnings

import torch

warnings.filterwarnings("ignore", message=".*LeafSpec")  # internal FutureWarning in 2.13


class Counter(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("calls", torch.zeros((), dtype=torch.int64))
        self.register_buffer("total", torch.zeros(()))

    def forward(self, x):
        self.calls.add_(1)   # mutates a buffer in place
        self.total = self.total + x.sum()  # reassigns a buffer
        y = x * 2
        y.relu_()            # mutates an intermediate
        x.mul_(-1)           # mutates the caller's input
        return y


def show(ep):
    print(f"dialect={ep.dialect}")
    for n in ep.graph.nodes:
        if n.op == "call_function":
            print(f"  op:  {n.target!s:22} first arg: {n.args[0]}")
    for s in ep.graph_signature.output_specs:
        print(f"  out: {s.arg.name:8} {s.kind.name:19} {s.target or ''}".rstrip())


ep = torch.export.export(Counter(), (torch.ones(2),))
show(ep)                          # training IR: in-place ops stay in the graph
show(ep.run_decompositions())     # functional: mutations become extra outputs

m, x = ep.module(), torch.tensor([1.0, -3.0])
print("result:", m(x), "x after the call:", x)
print("buffers after the call:", m.calls, m.total)
