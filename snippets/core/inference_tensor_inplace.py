#| expect: RuntimeError
import torch

with torch.inference_mode():
    cache = torch.zeros(3)
    cache.add_(1)  # inside inference_mode: allowed
print("updated inside inference_mode:", cache)

cache.add_(1)  # outside: refused
