import torch

torch.manual_seed(0)

lin = torch.nn.Linear(3, 2)
lin.register_full_backward_hook(lambda m, gin, gout: None)
x = torch.randn(4, 3, requires_grad=True)
out = torch.tanh(lin(x))

UINT64_MAX = 2**64 - 1
leaf_names = {id(lin.weight): "lin.weight", id(lin.bias): "lin.bias", id(x): "x"}
nodes = []


def collect(node, depth=0):
    if node is not None:
        nodes.append((depth, node))
        for child, _ in node.next_functions:
            collect(child, depth + 1)


collect(out.grad_fn)
first = min(n._sequence_nr() for _, n in nodes if n._sequence_nr() != UINT64_MAX)
print("backward graph; sequence_nr relative to the first node (a higher one runs first among ready nodes)")
for depth, node in nodes:
    seq = node._sequence_nr()
    label = "UINT64_MAX" if seq == UINT64_MAX else f"+{seq - first}"
    leaf = f" ({leaf_names[id(node.variable)]})" if hasattr(node, "variable") else ""
    print(f"{'  ' * depth}{node.name()}{leaf}  [{label}]")
