import warnings

import torch

torch.manual_seed(0)

warnings.filterwarnings("ignore", message=".*LeafSpec")  # internal FutureWarning in 2.13

norm = torch.nn.RMSNorm(4).to(torch.bfloat16)
x = torch.randn(2, 4, dtype=torch.bfloat16)

ep = torch.export.export(norm, (x,))
core = ep.run_decompositions()

for title, prog in (("export()", ep), ("run_decompositions()", core)):
    print(title)
    for n in prog.graph.nodes:
        if n.op == "call_function":
            scalars = [a for a in n.args[1:] if type(a) in (int, float)]
            line = f"    {n.target!s:26} -> {n.meta['val'].dtype}  {scalars or ''}"
            print(line.rstrip())

print("float32 eps:", torch.finfo(torch.float32).eps)
print("bfloat16 eps:", torch.finfo(torch.bfloat16).eps)
print("matches eager bit for bit:", torch.equal(core.module()(x), norm(x)))
