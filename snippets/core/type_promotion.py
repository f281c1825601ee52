import torch

i = torch.tensor([1, 2, 3])                        # int64
u = torch.tensor([200, 100], dtype=torch.uint8)
h = torch.ones(2, dtype=torch.float16)
f = torch.ones(2, dtype=torch.float32)
d = torch.ones(2, dtype=torch.float64)

print("int64 + 0.5 (Python float):         ", (i + 0.5).dtype)
print("int64 + float64 0-dim tensor:       ", (i + torch.tensor(0.5, dtype=torch.float64)).dtype)
print("int64 + float64 tensor of shape (3,):", (i + torch.ones(3, dtype=torch.float64)).dtype)
print("int64 / 2:", i / 2, " int64 // 2:", i // 2)
neg = torch.tensor([-7])
print("torch.tensor([-7]) // 2:", (neg // 2).item(),
      " torch.div(-7, 2, rounding_mode='trunc'):", torch.div(neg, 2, rounding_mode="trunc").item())
print("uint8 200 + 100:", (u[:1] + u[1:]).item(), " uint8 + 100 (Python int):", (u + 100).tolist())
print("uint8 + int8:", (u + torch.tensor([1, 1], dtype=torch.int8)).dtype)
h300 = torch.tensor(300.0, dtype=torch.float16)
print("float16 300 * 300:", (h300 * 300).item(), " float16 max:", torch.finfo(torch.float16).max)
print("float16 + 1.0 (Python float):        ", (h + 1.0).dtype)
print("float16 + float32 0-dim tensor:      ", (h + torch.tensor(1.0)).dtype)
print("float16 + float32 tensor of shape (2,):", (h + f).dtype)
print("float32 + float64 tensor of shape (2,):", (f + d).dtype)
print("torch.result_type(h, torch.tensor(1.0)):", torch.result_type(h, torch.tensor(1.0)))
print("torch.result_type(i, 2.5):", torch.result_type(i, 2.5))
print("torch.promote_types(torch.uint8, torch.int8):", torch.promote_types(torch.uint8, torch.int8))
print("torch.get_default_dtype():", torch.get_default_dtype())
