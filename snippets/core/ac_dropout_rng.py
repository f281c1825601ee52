import torch
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
block = torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.Dropout(p=0.5), torch.nn.Linear(32, 32))
x = torch.randn(8, 32, requires_grad=True)


def grad_of_x(**checkpoint_kwargs):
    torch.manual_seed(1)  # the same dropout mask in the forward for every run
    x.grad = None
    out = checkpoint(block, x, use_reentrant=False, **checkpoint_kwargs) if checkpoint_kwargs else block(x)
    out.sum().backward()
    return x.grad.clone()


plain = grad_of_x()
print("preserve_rng_state=True  (default): same gradient as without checkpointing:",
      torch.equal(plain, grad_of_x(preserve_rng_state=True)))
print("preserve_rng_state=False:           same gradient as without checkpointing:",
      torch.equal(plain, grad_of_x(preserve_rng_state=False)))
