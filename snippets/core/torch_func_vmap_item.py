#| expect: RuntimeError
import torch
from torch.func import vmap


def scale_by_max(row):
    return row / row.max().item()  # .item() needs one number; under vmap there is one per row


print(vmap(lambda row: row / row.max())(torch.tensor([[1.0, 2.0], [3.0, 6.0]])))
vmap(scale_by_max)(torch.tensor([[1.0, 2.0], [3.0, 6.0]]))
