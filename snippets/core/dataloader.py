#| devices: cpu
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info


class Noisy(Dataset):
    """Each item says which worker made it and draws from torch, numpy and random."""

    def __init__(self):
        self.calls = 0  # each worker process mutates its own copy

    def __len__(self):
        return 4

    def __getitem__(self, i):
        self.calls += 1
        return {
            "index": i,
            "worker": get_worker_info().id,
            "worker_torch_seed": self.seed,
            "calls_in_copy": self.calls,
            "torch": torch.randint(0, 1000, ()).item(),
            "numpy": int(np.random.randint(0, 1000)),
            "random": random.randint(0, 999),
        }


class OwnRng(Dataset):
    """Draws from a numpy Generator object made in __init__: the worker seeding does not reach it."""

    def __init__(self):
        self.rng = np.random.default_rng(0)  # copied, in the same state, into every worker

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return get_worker_info().id, int(self.rng.integers(0, 1000))


def init_fn(worker_id):
    # runs once in each worker, after torch, numpy and random were seeded
    get_worker_info().dataset.seed = torch.initial_seed()


def two_epochs(seed):
    loader = DataLoader(
        Noisy(), batch_size=None, shuffle=True, num_workers=2,
        worker_init_fn=init_fn, generator=torch.Generator().manual_seed(seed),
    )
    return [list(loader) for _ in range(2)]


if __name__ == "__main__":
    dataset_in_main = Noisy()
    epochs = two_epochs(seed=0)
    for n, epoch in enumerate(epochs):
        print(f"epoch {n}:")
        for item in epoch:
            print(" ", item)
    print("same generator seed, same orders and values:", epochs == two_epochs(seed=0))
    print("other generator seed, other orders or values:", epochs != two_epochs(seed=1))
    print("calls seen by the main process's dataset:", dataset_in_main.calls)
    torch.manual_seed(0)  # a loader without a generator draws its base seed from torch's default one
    own = list(DataLoader(OwnRng(), batch_size=None, num_workers=2))
    print("(worker, draw) from a Generator object the dataset made in __init__:", own)
