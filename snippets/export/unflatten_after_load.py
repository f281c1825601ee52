import warnings

import torch
from _unflatten_models import Block, Net

torch.manual_seed(0)

warnings.simplefilter("ignore")  # unflatten() emits internal FutureWarning/UserWarning noise

net = Net()
x = torch.randn(3, 4)
ep = torch.export.export(net, (x,), preserve_module_call_signature=("block",))
torch.export.save(ep, "net.pt2")

loaded = torch.export.load("net.pt2")
print("signatures after load:", [e.fqn for e in loaded.module_call_graph if e.signature])

u = torch.export.unflatten(loaded)
print("u.block takes:", [n.name for n in u.block.graph.nodes if n.op == "placeholder"])

eager = Block()
eager.load_state_dict(net.block.state_dict())
u.block = eager
print("swap after load works:", torch.allclose(u(x), net(x)))
