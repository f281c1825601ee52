import heapq
import operator
import sys

import torch
from torch._dynamo.polyfills.loader import POLYFILLED_MODULE_NAMES

print("loaded polyfill modules:", ", ".join(POLYFILLED_MODULE_NAMES))
print("heapq polyfills imported:", "torch._dynamo.polyfills.heapq" in sys.modules)


def register(original):
    """Register a same-signature twin of a function and say whether torch accepted it."""
    try:
        torch.compiler.substitute_in_graph(original, skip_signature_check=True)(lambda *a: None)
        print(f"{original.__module__}.{original.__name__}: accepted")
    except ValueError as e:
        print(f"{original.__module__}.{original.__name__}: ValueError: {e}")


register(heapq.heappush)  # a file exists in polyfills/, but it is not loaded
register(operator.concat)  # polyfills/operator.py is loaded, so this is a duplicate
