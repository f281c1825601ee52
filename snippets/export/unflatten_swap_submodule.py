#| expect: TypeError
import warnings

import torch
from _unflatten_models import Block, Net

torch.manual_seed(0)

warnings.simplefilter("ignore")  # unflatten() emits internal FutureWarning/UserWarning noise

net = Net()
x = torch.randn(3, 4)


def eager_block():  # an eager Block with the same weights, to swap in
    b = Block()
    b.load_state_dict(net.block.state_dict())
    return b


kept = torch.export.export(net, (x,), preserve_module_call_signature=("block",))
plain = torch.export.export(net, (x,))
print("same flat graph either way:", kept.graph_module.code == plain.graph_module.code)

sig = next(e.signature for e in kept.module_call_graph if e.fqn == "block")
print("recorded for 'block':", sig.inputs)
print("  returns:", sig.out_spec)

u = torch.export.unflatten(kept)
u.block = eager_block()
print("swap with preserved signature works:", torch.allclose(u(x), net(x)))

u = torch.export.unflatten(plain)
print("without it, u.block takes:", [n.name for n in u.block.graph.nodes if n.op == "placeholder"])
u.block = eager_block()
u(x)
