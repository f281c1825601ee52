import warnings

import torch
from _unflatten_models import Net

torch.manual_seed(0)

warnings.simplefilter("ignore")  # unflatten() emits internal FutureWarning/UserWarning noise

net = Net()
x = torch.randn(3, 4)
ep = torch.export.export(net, (x,))

print("flat graph: each op remembers its module path only as metadata")
for node in ep.graph.nodes:
    if node.op == "call_function":
        path = [fqn for fqn, _ in node.meta["nn_module_stack"].values()][-1]
        print(f"  {node.name:9} {str(node.target):22} from {path or '<root>'!r}")

flat = ep.module()
print("\nep.module() children:", [name for name, _ in flat.named_children()])
print("  call_module nodes:", [n.target for n in flat.graph.nodes if n.op == "call_module"])

u = torch.export.unflatten(ep)
print("\nunflatten():")
for name, mod in u.named_modules():
    print(f"  {name or '<root>':10} {type(mod).__name__}")
print("u.block's own graph:")
print(u.block.graph)
print("same result as eager:", torch.allclose(u(x), net(x)))
