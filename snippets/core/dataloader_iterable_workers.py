from collections import Counter

import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info


class Numbers(IterableDataset):  # every worker runs __iter__ on its own copy
    def __iter__(self):
        return iter(range(6))


class ShardedNumbers(IterableDataset):
    def __iter__(self):
        info = get_worker_info()  # None in the main process (num_workers=0)
        if info is None:
            return iter(range(6))
        return iter(range(info.id, 6, info.num_workers))  # worker k takes k, k + n, k + 2n, ...


if __name__ == "__main__":
    torch.manual_seed(0)
    for dataset in (Numbers(), ShardedNumbers()):
        for workers in (0, 2):
            items = [int(x) for x in DataLoader(dataset, batch_size=None, num_workers=workers)]
            copies = sorted(set(Counter(items).values()))
            print(f"{type(dataset).__name__:14} num_workers={workers}: {items}  copies of each: {copies}")
