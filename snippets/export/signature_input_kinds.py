import torch

torch.manual_seed(0)


class Scaler(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(3))
        self.register_buffer("shift", torch.zeros(3))                  # saved in state_dict
        self.register_buffer("mask", torch.ones(3), persistent=False)  # not saved
        self.table = torch.arange(3.0)                                 # plain tensor attribute

    def forward(self, x, factor: int):
        return (x * self.weight + self.shift) * self.mask + self.table * factor


ep = torch.export.export(Scaler(), (torch.randn(3), 2))
sig = ep.graph_signature

print("inputs, in graph order:")
for spec in sig.input_specs:
    print(f"  {spec.kind.name:15} {type(spec.arg).__name__:16} "
          f"name={spec.arg.name} target={spec.target} persistent={spec.persistent}")
print("outputs:")
for spec in sig.output_specs:
    print(f"  {spec.kind.name:15} {type(spec.arg).__name__:16} name={spec.arg.name}")

users = {n.name: len(n.users) for n in ep.graph.find_nodes(op="placeholder")}
print("placeholder users:", users)
for n in ep.graph.nodes:
    if n.op == "call_function":
        print(f"  {n.name} = {n.target}{n.args}")
print("user_inputs:", sig.user_inputs)
print("ep.state_dict:", sorted(ep.state_dict))
print("ep.constants: ", sorted(ep.constants))
