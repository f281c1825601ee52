import torch

x = torch.arange(12.0).reshape(3, 4).clone()  # a base of its own: x._base is None
ops = {
    "x.t()": lambda: x.t(),
    "x.permute(1, 0)": lambda: x.permute(1, 0),
    "x[1:, 1:]": lambda: x[1:, 1:],
    "x[0]": lambda: x[0],
    "x.unsqueeze(0)": lambda: x.unsqueeze(0),
    "x[:1].expand(5, 4)": lambda: x[:1].expand(5, 4),
    "x.chunk(2, dim=1)[1]": lambda: x.chunk(2, dim=1)[1],
    "x.diagonal()": lambda: x.diagonal(),
    "x.detach()": lambda: x.detach(),
    "x.flatten()": lambda: x.flatten(),
    "x.t().flatten()": lambda: x.t().flatten(),
    "x[[0, 2]]": lambda: x[[0, 2]],
    "x[x > 5]": lambda: x[x > 5],
    "x.clone()": lambda: x.clone(),
    "x.to(torch.float64)": lambda: x.to(torch.float64),
}
print(f"{'op':22} {'_base is x':11} {'same storage':13} {'stride':11} offset")
for name, op in ops.items():
    y = op()
    same = y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    print(f"{name:22} {y._base is x!s:11} {same!s:13} {y.stride()!s:11} {y.storage_offset()}")

print("x.contiguous() is x:", x.contiguous() is x)
print("x.to(torch.float32) is x:", x.to(torch.float32) is x)

col = x[:, 1]  # a view: writing through it writes x
col.fill_(-1)
picked = x[[0, 2]]  # advanced indexing copies: writing to it leaves x alone
picked.fill_(99)
d = x.detach()  # same storage, _base is None: a write still reaches x
before = x._version
d[0, 0] = 42
print("x._version before and after writing through detach():", before, x._version)
print(x)
