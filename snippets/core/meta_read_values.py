#| expect: NotImplementedError
import torch

x = torch.ones(2, 3, device="meta")
print(x)  # the repr prints no values
print("x + 1:", (x + 1).device)
x.tolist()  # reading values needs data
