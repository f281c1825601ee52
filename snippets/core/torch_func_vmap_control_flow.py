#| expect: RuntimeError
import torch
from torch.func import vmap

rows = torch.tensor([[1.0, -2.0], [-3.0, 4.0]])


def flip_if_negative_sum(row):
    return torch.where(row.sum() < 0, -row, row)  # both branches computed, one picked per row


print(vmap(flip_if_negative_sum)(rows))


def flip_if_negative_sum_with_if(row):
    if row.sum() < 0:  # a Python branch needs one bool; under vmap there is one per row
        return -row
    return row


vmap(flip_if_negative_sum_with_if)(rows)
