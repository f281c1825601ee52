import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

# token sequences of different lengths: the default collate cannot stack them
sequences = [torch.arange(1, n + 1) for n in (3, 1, 4, 2)]
torch.manual_seed(0)  # a DataLoader draws its base seed from torch's default generator

try:
    next(iter(DataLoader(sequences, batch_size=2)))
except RuntimeError as e:
    print("default collate:", type(e).__name__, "-", str(e).splitlines()[0])


def pad_collate(batch):
    lengths = torch.tensor([len(s) for s in batch])
    padded = pad_sequence(batch, batch_first=True, padding_value=0)
    mask = torch.arange(padded.shape[1]) < lengths[:, None]
    return padded, lengths, mask


for padded, lengths, mask in DataLoader(sequences, batch_size=2, collate_fn=pad_collate):
    print("padded", padded.tolist(), "lengths", lengths.tolist(), "mask", mask.int().tolist())
