#| expect: RuntimeError
import torch

counts = torch.tensor([1, 2, 3])  # int64
h = torch.zeros(2, dtype=torch.float16)
h += torch.ones(2, dtype=torch.float32)  # in place: the result is cast back to float16
print("float16 += float32 keeps", h.dtype)
print("counts + 0.5 gives", (counts + 0.5).dtype)
counts += 0.5  # in place cannot turn int64 into float32
