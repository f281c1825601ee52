import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(96, 384), torch.nn.GELU(), torch.nn.Linear(384, 32))
params = {p.untyped_storage().data_ptr() for p in model.parameters()}
x = torch.randn(64, 96)

for autocast in (False, True):
    saved = {}  # storage -> (shape, dtype, bytes) of each tensor saved for backward, parameters left out

    def pack(t):
        if t.untyped_storage().data_ptr() not in params:
            saved[t.untyped_storage().data_ptr()] = (tuple(t.shape), t.dtype, t.untyped_storage().nbytes())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            out = model(x)
    print(f"autocast={autocast}: {sum(b for *_, b in saved.values()):,} bytes saved for backward")
    for shape, dtype, nbytes in saved.values():
        print(f"  {str(shape):11} {str(dtype):15} {nbytes:>7,}")
