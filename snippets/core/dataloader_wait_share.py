import time
import warnings

import torch
from torch.utils.data import DataLoader, Dataset

ITEM_S, STEP_S = 0.020, 0.032  # 4 items a batch: 80 ms to load a batch, 32 ms to train on it


class SlowDataset(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        time.sleep(ITEM_S)  # stands in for decoding and augmentation
        return torch.full((4,), float(i))


def wait_share(loader):
    """Share of the loop's time spent in next(loader), the first batch (worker start-up) left out."""
    waited = stepped = 0.0
    it = iter(loader)
    next(it)
    while True:
        t0 = time.perf_counter()
        try:
            batch = next(it)
        except StopIteration:
            break
        t1 = time.perf_counter()
        time.sleep(STEP_S)  # stands in for the training step
        batch.sum()
        t2 = time.perf_counter()
        waited, stepped = waited + (t1 - t0), stepped + (t2 - t1)
    return waited / (waited + stepped)


if __name__ == "__main__":
    torch.manual_seed(0)
    # DataLoader warns when num_workers exceeds this machine's CPU count; the workers here only sleep
    warnings.filterwarnings("ignore", message="This DataLoader will create")
    for workers in (0, 4):
        share = wait_share(DataLoader(SlowDataset(), batch_size=4, num_workers=workers))
        # the share itself varies from run to run and machine to machine: print its side of 50 %
        verdict = "more than half waiting for data" if share > 0.5 else "less than half waiting for data"
        print(f"num_workers={workers}: the loop spends {verdict}")
