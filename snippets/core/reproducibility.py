import random

import numpy as np
import torch


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)  # also seeds every CUDA device, when there is one


def draws():
    return (random.random(), float(np.random.rand()), torch.rand(2).tolist())


seed_everything(42)
first = draws()
seed_everything(42)
print("same seeds, same draws:", draws() == first)
seed_everything(42)
torch.rand(5)  # one extra draw from the global generator ...
print("after one extra draw:", draws() == first)  # ... shifts every later draw

# a Generator of its own: a stream no other code can shift
gen = torch.Generator().manual_seed(42)
a = torch.rand(2, generator=gen)
torch.rand(100)  # other code using the global generator
gen2 = torch.Generator().manual_seed(42)
torch.rand(7)
print("own generator unaffected by global draws:", torch.equal(a, torch.rand(2, generator=gen2)))
print("dropout repeats after restoring the RNG state:", end=" ")
state = torch.get_rng_state()
m1 = torch.nn.functional.dropout(torch.ones(6), 0.5)
torch.set_rng_state(state)
print(torch.equal(m1, torch.nn.functional.dropout(torch.ones(6), 0.5)))
