import torch
import torch.nn.functional as F
from torch.fx.passes.split_module import split_module

torch.manual_seed(0)
D, H = 16, 2


@torch.library.custom_op("serve::attention", mutates_args=())
def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)  # a real stack calls its kernel here


@attention.register_fake
def _(q, k, v):
    return torch.empty_like(q)


class Block(torch.nn.Module):
    def __init__(self, attn):
        super().__init__()
        self.qkv, self.out, self.attn = torch.nn.Linear(D, 3 * D), torch.nn.Linear(D, D), attn

    def forward(self, x):  # x: (tokens, D)
        q, k, v = self.qkv(x).view(-1, 3, H, D // H).permute(1, 2, 0, 3)
        y = self.attn(q, k, v).permute(1, 0, 2).reshape(-1, D)
        return x + self.out(y)


graphs = []


def backend(gm, example_inputs):
    graphs.append((gm, example_inputs))
    return gm.forward


x = torch.randn(5, D)
for name, attn in [
    ("compiler.disable", torch.compiler.disable(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True))),
    ("custom op", torch.ops.serve.attention),
]:
    graphs.clear()
    torch._dynamo.reset()
    block = Block(attn)
    torch.testing.assert_close(torch.compile(block, backend=backend)(x), block(x))
    print(f"{name}: {len(graphs)} Dynamo graph(s), ops per graph",
          [sum(n.op in ("call_function", "call_method") for n in g.graph.nodes) for g, _ in graphs])

    if name == "compiler.disable":  # a graph break is an error under fullgraph=True
        torch._dynamo.reset()
        try:
            torch.compile(block, backend=backend, fullgraph=True)(x)
        except torch._dynamo.exc.Unsupported as e:
            print("  with fullgraph=True:", type(e).__name__, "-", str(e).splitlines()[0])

# the custom op is one node of one graph: a backend can cut the graph there itself
gm, args = graphs[0]
ATTN = torch.ops.serve.attention  # Dynamo records the op's packet as the node's target
print("attention node:", [n.name for n in gm.graph.nodes if n.target is ATTN])
piece = 0


def assign(node):  # start a new piece at the attention op, and another after it
    global piece
    if node.target is ATTN:
        piece += 1
        part = piece
        piece += 1
        return part
    return piece


pieces = split_module(gm, None, assign)
for pname, sub in pieces.named_children():
    ops = [getattr(n.target, "__name__", str(n.target)) for n in sub.graph.nodes
           if n.op in ("call_function", "call_method")]
    print(f"  {pname}: {ops}")
print("pieces compute what the graph computes:", torch.equal(pieces(*args)[0], gm(*args)[0]))
