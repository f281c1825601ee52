import torch
from torch.func import vmap

x = torch.ones(3, 4)
drop = torch.nn.Dropout(p=0.5)

try:
    vmap(drop)(x)
except RuntimeError as e:
    print("default randomness='error': RuntimeError:", e)

torch.manual_seed(0)
same = vmap(drop, randomness="same")(x)
torch.manual_seed(0)
different = vmap(drop, randomness="different")(x)
print("randomness='same': every row has the same mask:", all(torch.equal(same[0], r) for r in same))
print("randomness='different': rows differ:", not all(torch.equal(different[0], r) for r in different))
