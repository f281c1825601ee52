#| expect: RuntimeError
import torch

x = torch.arange(12).reshape(3, 4)
t = x.t()
print("t stride", t.stride(), "contiguous", t.is_contiguous())
print("t.view(2, 2, 3) stride", t.view(2, 2, 3).stride())  # splitting a dim is always a view
print("t.reshape(12):", t.reshape(12).tolist())  # reshape copies
t.view(12)  # merging t's dims needs one stride for both: there is none
