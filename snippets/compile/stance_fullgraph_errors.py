import torch
from torch._dynamo.exc import TorchDynamoException, Unsupported


def prints(x):
    print("  print() ran")  # an unsupported builtin
    return x + 1


def branches_on_item(x):
    if x.sum().item() > 0:  # a Python branch on a value read out of the tensor
        return x + 1
    return x - 1


for fn in (prints, branches_on_item):
    torch._dynamo.reset()
    try:
        torch.compile(fn, backend="eager", fullgraph=True)(torch.ones(3))
    except TorchDynamoException as e:
        print(f"{fn.__name__}: {type(e).__module__}.{type(e).__name__}, "
              f"an Unsupported: {isinstance(e, Unsupported)}")
        print("   ", str(e).splitlines()[0].split(" (unhinted")[0])
