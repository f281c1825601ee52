import torch

torch.manual_seed(0)

N = 4
graphs = []


def counting_backend(gm, example_inputs):  # a custom backend: keep the graph, run it as is
    graphs.append(gm)
    return gm.forward


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(64, 64)

    @torch.compiler.nested_compile_region
    def forward(self, x):
        return x + torch.nn.functional.gelu(self.lin(x)) * torch.sigmoid(x)


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Linear(64, 64)
        self.blocks = torch.nn.ModuleList(Block() for _ in range(N))

    def forward(self, x):
        x = self.stem(x)
        for block in self.blocks:
            x = block(x)
        return x


model = Model()
x = torch.randn(8, 64)
out = torch.compile(model, backend=counting_backend)(x)

(gm,) = graphs
print("graphs Dynamo produced:", len(graphs))
inputs = [n.name for n in gm.graph.nodes if n.op == "placeholder"]
print(f"graph inputs: {len(inputs)}, of them parameters: {sum('_parameters_' in n for n in inputs)}")
for node in gm.graph.nodes:
    if node.op == "call_function":
        args = [a.target if isinstance(a, torch.fx.Node) and a.op == "get_attr" else "." for a in node.args[:1]]
        name = getattr(node.target, "__name__", str(node.target))
        print(f"  {node.name:18} {name}", args if node.target is torch.ops.higher_order.invoke_subgraph else "")
subgraphs = {n.target for n in gm.graph.nodes if n.op == "get_attr"}
print("distinct subgraph modules called:", sorted(subgraphs))
print("ops inside it:", [getattr(n.target, "__name__", str(n.target)) for n in getattr(gm, sorted(subgraphs)[0]).graph.nodes if n.op == "call_function"])
print("eager outside torch.compile, same result:", torch.allclose(out, model(x)))
