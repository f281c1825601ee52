# The follow-ups of batch-norm, on the pinned torch: which variance goes where, small batches,
# what the backward keeps (memory), folding eval-mode BatchNorm into the Linear before it (cost),
# and the variants: momentum=None, BatchNorm2d, and statistics kept as plain attributes.
import torch
from torch.nn.utils.fusion import fuse_linear_bn_eval

torch.manual_seed(0)
x = torch.randn(8, 3, dtype=torch.float64) * 2 + 1
bn = torch.nn.BatchNorm1d(3, dtype=torch.float64)  # momentum 0.1, eps 1e-5
out = bn(x)  # training mode: one step
biased, unbiased = x.var(0, correction=0), x.var(0)
print("output uses the biased variance:",
      torch.allclose(out, (x - x.mean(0)) / torch.sqrt(biased + 1e-5)))
print("running_var = 0.9 * 1 + 0.1 * unbiased variance:",
      torch.allclose(bn.running_var, 0.9 + 0.1 * unbiased))
print("running_mean = 0.9 * 0 + 0.1 * batch mean:", torch.allclose(bn.running_mean, 0.1 * x.mean(0)))
print("num_batches_tracked:", bn.num_batches_tracked)

# Small batches: one value per channel cannot be normalised in training; two always give -1 and +1.
try:
    bn(torch.randn(1, 3, dtype=torch.float64))
except ValueError as exc:
    print("training on (1, 3):", exc)
bn.eval()
print("eval on (1, 3):", tuple(bn(torch.randn(1, 3, dtype=torch.float64)).shape))
bn.train()
two = torch.tensor([[3.0, -50.0, 0.1], [7.0, 20.0, 0.2]], dtype=torch.float64)
print("training on a batch of 2, rows [3, -50, 0.1] and [7, 20, 0.2]:",
      bn(two).detach().round(decimals=3).tolist())

# Memory: the tensors autograd keeps for the backward of one (1024, 256) float32 batch (1 MiB),
# counted once per storage, for nn.BatchNorm1d and for a from-scratch forward.
def saved(fn, x):
    """MiB saved, and how many of the saved storages are as large as x."""
    storages = {}

    def pack(t):
        storages[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn(x)
    full = sum(nbytes == x.numel() * x.element_size() for nbytes in storages.values())
    return sum(storages.values()) / 2**20, full


def from_scratch(x, weight, bias, eps=1e-5):
    mean, var = x.mean(0), x.var(0, correction=0)
    return (x - mean) / torch.sqrt(var + eps) * weight + bias


xb = torch.randn(1024, 256, requires_grad=True)
bn32 = torch.nn.BatchNorm1d(256)
mib, full = saved(bn32, xb)
print(f"saved for backward, nn.BatchNorm1d: {mib:.3f} MiB, {full} of them the size of x,"
      f" grad_fn {type(bn32(xb).grad_fn).__name__}")
grad_fn = bn32(xb).grad_fn
print("  its saved tensors:", {name.removeprefix("_saved_"): tuple(getattr(grad_fn, name).shape)
                              for name in dir(grad_fn) if name.startswith("_saved_")
                              and isinstance(getattr(grad_fn, name), torch.Tensor)})
mib, full = saved(lambda t: from_scratch(t, bn32.weight, bn32.bias), xb)
print(f"saved for backward, from scratch: {mib:.3f} MiB, {full} of them the size of x")

# Cost at inference: eval-mode BatchNorm is a per-channel scale and shift, so it folds into the
# Linear before it: one Linear of the same shape, no normalisation left to run.
linear, bn_after = torch.nn.Linear(16, 4, dtype=torch.float64), torch.nn.BatchNorm1d(4, dtype=torch.float64)
for _ in range(3):
    bn_after(linear(torch.randn(32, 16, dtype=torch.float64) * 3))
linear.eval(), bn_after.eval()
fused = fuse_linear_bn_eval(linear, bn_after)
xi = torch.randn(5, 16, dtype=torch.float64)
print("fused Linear equals Linear then BatchNorm1d in eval:", torch.allclose(fused(xi), bn_after(linear(xi))))
print("fused weight shape:", tuple(fused.weight.shape), "the Linear's:", tuple(linear.weight.shape))
bn_after.train()
try:
    fuse_linear_bn_eval(linear, bn_after)
except AssertionError as exc:
    print("fusing in training mode:", exc)

# Variant: momentum=None keeps the cumulative average of the batch statistics.
cma = torch.nn.BatchNorm1d(3, momentum=None, dtype=torch.float64)
batches = [torch.randn(10, 3, dtype=torch.float64) + k for k in range(3)]
for b in batches:
    cma(b)
print("momentum=None: running_mean is the mean of the 3 batch means:",
      torch.allclose(cma.running_mean, torch.stack([b.mean(0) for b in batches]).mean(0)))

# Variant: BatchNorm2d on (N, C, H, W) is BatchNorm1d on (N, C, H * W): the same per-channel statistics.
img = torch.randn(4, 3, 5, 6, dtype=torch.float64)
bn2d, bn1d = torch.nn.BatchNorm2d(3, dtype=torch.float64), torch.nn.BatchNorm1d(3, dtype=torch.float64)
print("BatchNorm2d(x) equals BatchNorm1d(x.flatten(2)):",
      torch.allclose(bn2d(img), bn1d(img.flatten(2)).view_as(img)),
      "and the running means:", torch.allclose(bn2d.running_mean, bn1d.running_mean))

# Statistics kept as plain attributes (not register_buffer): not saved, not converted.
class PlainStats(torch.nn.Module):
    def __init__(self, c):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(c))
        self.running_mean = torch.zeros(c)


plain = PlainStats(3).double()
print("plain attributes: state_dict keys", list(plain.state_dict()), "| running_mean dtype after"
      " .double():", plain.running_mean.dtype)
print("nn.BatchNorm1d state_dict keys:", list(torch.nn.BatchNorm1d(3).state_dict()))
print("nn.BatchNorm1d parameters:", [n for n, _ in torch.nn.BatchNorm1d(3).named_parameters()],
      "| running_mean.requires_grad:", torch.nn.BatchNorm1d(3).running_mean.requires_grad)
