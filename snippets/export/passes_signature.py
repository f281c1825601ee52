import warnings

import torch
from torch.fx.passes.infra.pass_base import PassBase, PassResult

torch.manual_seed(0)

warnings.filterwarnings("ignore", message=".*LeafSpec")  # internal FutureWarning in 2.13
aten = torch.ops.aten


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        return torch.relu(self.fc(x)) * 2


class MulByTwoToAdd(PassBase):
    """x * 2 -> x + x, keeping the node's meta (its 'val' included)."""

    def call(self, gm):
        g = gm.graph
        for n in list(g.nodes):
            if n.target == aten.mul.Tensor and n.args[1] == 2:
                with g.inserting_before(n):
                    new = g.call_function(aten.add.Tensor, (n.args[0], n.args[0]))
                new.meta = dict(n.meta)
                n.replace_all_uses_with(new)
                g.erase_node(n)
        gm.recompile()
        return PassResult(gm, True)


def report(ep, x, net):
    print("  output node:", [a.name for a in ep.graph.output_node().args[0]],
          "| signature:", ep.graph_signature.user_outputs)
    print("  same output:", torch.equal(ep.module()(x), net(x)))
    for step in (ep.validate, lambda: torch.export.save(ep, "net.pt2")):
        try:
            step()
            print("  ok")
        except Exception as e:
            print(f"  {type(e).__name__}: {e}")


net, x = Net(), torch.randn(2, 4)

print("pass run on ep.graph_module in place:")
ep = torch.export.export(net, (x,)).run_decompositions()
MulByTwoToAdd()(ep.graph_module)
report(ep, x, net)

print("same pass through ep._transform_do_not_use:")
ep = torch.export.export(net, (x,)).run_decompositions()
ep = ep._transform_do_not_use(MulByTwoToAdd())
report(ep, x, net)
print("  loaded back:", torch.equal(torch.export.load("net.pt2").module()(x), net(x)))
