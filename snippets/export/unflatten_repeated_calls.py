#| devices: cpu
import warnings

import torch

torch.manual_seed(0)

warnings.simplefilter("ignore")  # unflatten() emits internal FutureWarning/UserWarning noise


class Scale(torch.nn.Module):
    def forward(self, x, s):
        return x * s


class Same(torch.nn.Module):  # calls `sub` twice in the same way
    def __init__(self):
        super().__init__()
        self.sub = torch.nn.Linear(3, 3)

    def forward(self, x):
        return self.sub(self.sub(x))


class Different(torch.nn.Module):  # calls `sub` twice with different constants
    def __init__(self):
        super().__init__()
        self.sub = Scale()

    def forward(self, x):
        return self.sub(x, 2.0) + self.sub(x, 3.0)


x = torch.randn(2, 3)
for model in (Same(), Different()):
    for preserve in ((), ("sub",)):
        ep = torch.export.export(model, (x,), preserve_module_call_signature=preserve)
        u = torch.export.unflatten(ep)
        children = {name: type(mod).__name__ for name, mod in u.named_children()}
        calls = [n.target for n in u.graph.nodes if n.op == "call_module"]
        print(f"{type(model).__name__:9} preserve={preserve!s:8} children={children} calls={calls}")

# Unflattened modules run their graphs node by node through torch.fx.Interpreter.
runs = []
original = torch.fx.Interpreter.run_node
torch.fx.Interpreter.run_node = lambda self, n: runs.append(n.op) or original(self, n)
torch.export.unflatten(torch.export.export(Same(), (x,)))(x)
print("unflattened call: fx.Interpreter.run_node ran", len(runs), "times")
runs.clear()
torch.export.export(Same(), (x,)).module()(x)
print("ep.module() call: fx.Interpreter.run_node ran", len(runs), "times")
