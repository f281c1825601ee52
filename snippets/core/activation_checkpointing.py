import torch
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
forward_calls = 0


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(256, 1024)
        self.fc2 = torch.nn.Linear(1024, 256)

    def forward(self, x):
        global forward_calls
        forward_calls += 1
        return self.fc2(torch.nn.functional.gelu(self.fc1(x)))


blocks = torch.nn.ModuleList(Block() for _ in range(4))
param_storages = {p.untyped_storage().data_ptr() for p in blocks.parameters()}
x = torch.randn(64, 256, requires_grad=True)


def train_step(use_checkpoint):
    global forward_calls
    forward_calls = 0
    saved = {}  # storage -> bytes, for every tensor autograd saves that is not a parameter

    def pack(t):
        if t.untyped_storage().data_ptr() not in param_storages:
            saved[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        h = x
        for block in blocks:
            h = checkpoint(block, h, use_reentrant=False) if use_checkpoint else block(h)
        loss = h.square().mean()
    in_forward = forward_calls
    blocks.zero_grad()
    x.grad = None
    loss.backward()
    print(f"checkpoint={use_checkpoint!s:5}  Block.forward calls: {in_forward} in forward,"
          f" {forward_calls - in_forward} in backward | saved: {len(saved)} tensors, {sum(saved.values()):,} bytes")
    return [p.grad.clone() for p in blocks.parameters()]


plain = train_step(use_checkpoint=False)
ckpt = train_step(use_checkpoint=True)
print("same gradients:", all(torch.equal(a, b) for a, b in zip(plain, ckpt)))
