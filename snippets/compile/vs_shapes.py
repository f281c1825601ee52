import torch

torch.manual_seed(0)

model = torch.nn.Linear(4, 3)
compiles = []


def counting_backend(gm, example_inputs):
    inputs = [n.meta["example_value"] for n in gm.graph.nodes if n.op == "placeholder"]
    x = inputs[-1]  # weight and bias come first, then the batch
    compiles.append(tuple(x.shape))  # s33 and the like: a dynamic size
    return gm.forward


# torch.compile: a new batch size fails a guard, so Dynamo compiles again (here: a dynamic graph).
compiled = torch.compile(model, backend=counting_backend)
for batch in (2, 3, 5):
    compiled(torch.randn(batch, 4))
    print(f"compile, batch {batch}: graphs so far {len(compiles)}, input shapes {compiles}")

# torch.export: the example's shapes are the contract; ep.module() checks it on every call.
ep = torch.export.export(model, (torch.randn(2, 4),))
print("export, batch 2:", tuple(ep.module()(torch.randn(2, 4)).shape))
try:
    ep.module()(torch.randn(3, 4))
except AssertionError as e:
    print("export, batch 3:", type(e).__name__, e)

# Widening the contract is explicit: declare the dimension dynamic, with a range.
batch = torch.export.Dim("batch", min=1, max=8)
ep = torch.export.export(model, (torch.randn(2, 4),), dynamic_shapes={"input": {0: batch}})
print("range_constraints:", ep.range_constraints)
print("export with Dim, batch 5:", tuple(ep.module()(torch.randn(5, 4)).shape))
try:
    ep.module()(torch.randn(9, 4))
except AssertionError as e:
    print("export with Dim, batch 9:", type(e).__name__, e)
