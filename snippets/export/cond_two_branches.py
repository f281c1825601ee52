import torch


class Gate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.full((3,), 10.0))

    def forward(self, x):
        def scaled(t):
            return t * self.scale  # a branch may read parameters

        def shifted(t):
            return t - 1

        # The predicate depends on the values in x, not only on its shape.
        return torch.cond(x.sum() > 0, scaled, shifted, (x,))


# The example input takes the true branch...
ep = torch.export.export(Gate(), (torch.ones(3),))

gm = ep.graph_module
print("top graph:", gm.code.strip(), sep="\n")
print("true_graph_0:", gm.true_graph_0.code.strip(), sep="\n")
print("false_graph_0:", gm.false_graph_0.code.strip(), sep="\n")

# ...but both branches are in the program, so both still run.
run = ep.module()
print("sum > 0: ", run(torch.tensor([1.0, 2.0, 3.0])))
print("sum <= 0:", run(torch.tensor([-1.0, -2.0, -3.0])))
