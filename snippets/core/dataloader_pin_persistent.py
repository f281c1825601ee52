#| devices: cpu
import warnings

import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info


class Counting(Dataset):
    def __init__(self):
        self.calls = 0  # lives in each worker's copy

    def __len__(self):
        return 4

    def __getitem__(self, i):
        self.calls += 1
        return torch.tensor([get_worker_info().id, self.calls])


def epochs(**kwargs):
    loader = DataLoader(Counting(), batch_size=2, num_workers=2, **kwargs)
    return [[batch[:, 1].tolist() for batch in loader] for _ in range(2)]


if __name__ == "__main__":
    print("accelerator available:", torch.accelerator.is_available())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        batch = next(iter(DataLoader(Counting(), batch_size=2, num_workers=2, pin_memory=True)))
    print("warning:", caught[0].message)
    print("batch pinned:", batch.is_pinned())

    # calls counted by each worker's dataset copy, per batch, in two epochs
    print("persistent_workers=False:", epochs())
    print("persistent_workers=True: ", epochs(persistent_workers=True))
