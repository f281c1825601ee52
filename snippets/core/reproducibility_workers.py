#| devices: cpu
import torch
from torch.utils.data import DataLoader, Dataset


class Augmented(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return i, torch.randint(0, 100, ()).item()  # a random "augmentation"


def epoch(num_workers):
    torch.manual_seed(0)  # the same global seed every time
    loader = DataLoader(Augmented(), batch_size=None, shuffle=True, num_workers=num_workers)
    return [(i, noise) for i, noise in loader]


if __name__ == "__main__":
    runs = {n: epoch(n) for n in (0, 1, 2)}
    for n, items in runs.items():
        print(f"num_workers={n}: (index, noise) {items}")
    print("2 workers, run again:", epoch(2) == runs[2])
