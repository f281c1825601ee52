#| devices: cpu
import warnings

import torch
from torch.utils.data import DataLoader, Dataset


class Counting(Dataset):
    def __init__(self):
        self.calls = 0  # lives in each worker's copy

    def __len__(self):
        return 4

    def __getitem__(self, i):
        self.calls += 1
        return torch.tensor([self.calls, torch.initial_seed()])


def epochs(**kwargs):
    loader = DataLoader(Counting(), batch_size=2, num_workers=2,
                        generator=torch.Generator().manual_seed(0), **kwargs)
    batches = [list(loader) for _ in range(2)]
    calls = [[b[:, 0].tolist() for b in epoch] for epoch in batches]
    seeds = [{b[0, 1].item() for b in epoch} for epoch in batches]
    return calls, seeds[0] != seeds[1]


if __name__ == "__main__":
    print("accelerator available:", torch.accelerator.is_available())
    torch.manual_seed(0)  # the first loader has no generator: its base seed comes from torch's default one
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        batch = next(iter(DataLoader(Counting(), batch_size=2, num_workers=2, pin_memory=True)))
    print("warning:", caught[0].message)
    print("batch pinned:", batch.is_pinned())

    # calls counted by each worker's dataset copy, per batch, in two epochs,
    # and whether the workers' torch seeds changed from the first epoch to the second
    for persistent in (False, True):
        calls, reseeded = epochs(persistent_workers=persistent)
        print(f"persistent_workers={persistent}: calls {calls}, new seeds in epoch 2: {reseeded}")
