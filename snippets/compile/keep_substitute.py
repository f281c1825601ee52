import bisect
import warnings

import torch

EDGES = [8, 16, 32, 64]  # pad a sequence up to the next bucket size


def pad_to_bucket(x):
    size = EDGES[bisect.bisect_left(EDGES, x.shape[0])]  # bisect_left is a C function
    return torch.nn.functional.pad(x, (0, size - x.shape[0])) * 2


def try_fullgraph(label):
    torch._dynamo.reset()
    try:
        out = torch.compile(pad_to_bucket, backend="eager", fullgraph=True)(torch.ones(10))
        print(f"{label}: one graph, output shape {tuple(out.shape)}")
    except torch._dynamo.exc.Unsupported as e:
        print(f"{label}: {type(e).__name__}: {str(e).splitlines()[0]}")
        print("   ", str(e).splitlines()[1].strip())


with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Dynamo also warns with the same explanation
    try_fullgraph("before")


# A pure-Python twin, same signature, that Dynamo can trace in place of the C function.
@torch.compiler.substitute_in_graph(bisect.bisect_left)
def bisect_left(a, x, lo=0, hi=None, *, key=None):
    hi = len(a) if hi is None else hi
    while lo < hi:
        mid = (lo + hi) // 2
        if (a[mid] if key is None else key(a[mid])) < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


try_fullgraph("after ")
print("bisect.bisect_left is still the C function:", type(bisect.bisect_left).__name__)
print("the decorated name wraps it:", bisect_left.__torch_dynamo_original__ is bisect.bisect_left)
