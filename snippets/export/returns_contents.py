#| expect: AssertionError
import torch

torch.manual_seed(0)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 3)
        self.register_buffer("scale", torch.tensor(2.0))

    def forward(self, x):
        return self.lin(x).relu() * self.scale


model = Net()
x = torch.randn(2, 4)
ep = torch.export.export(model, (x,))

print(type(ep).__name__)
print("graph:")
for node in ep.graph.nodes:
    print(f"  {node.op:13} {node.name:12} {node.target}")
print("signature:", ep.graph_signature)
print("state_dict keys:", list(ep.state_dict))
print("range_constraints:", ep.range_constraints)
print("dialect:", ep.dialect)

runnable = ep.module()  # a torch.fx.GraphModule with the weights put back
print("module() is a GraphModule:", isinstance(runnable, torch.fx.GraphModule))
print("same result as eager:", torch.equal(runnable(x), model(x)))

runnable(torch.randn(5, 4))  # no dynamic_shapes were given: batch size 2 is part of the contract
