#| devices: cpu
#| timeout: 240
import torch
from torch._dynamo.utils import same


def f(x):
    return torch.sin(x).sum(dim=-1)  # a reduction: compiled code may add in another order


torch.manual_seed(0)
x = torch.randn(64, 4096)
eager, compiled = f(x), torch.compile(f)(x)  # default backend: Inductor
fp64 = f(x.double())
# The sizes of these errors are the CPU's: the vector width sets the order of the additions
# (an AVX2 CPU's compiled error is twice an AVX-512 one's), so they are printed as comparisons.
eager_err = (eager.double() - fp64).abs().max().item()
compiled_err = (compiled.double() - fp64).abs().max().item()
print("bit-identical to eager:", torch.equal(eager, compiled))
print("max |compiled - eager| below 1e-4:", (compiled - eager).abs().max().item() < 1e-4)
print("max error vs float64: compiled's above eager's:", compiled_err > eager_err,
      "| both below 1e-4:", max(eager_err, compiled_err) < 1e-4)
try:
    torch.testing.assert_close(compiled, eager)  # float32 defaults: rtol=1.3e-6, atol=1e-5
    print("assert_close with float32 defaults: passed")
except AssertionError as e:
    print("assert_close with float32 defaults:", str(e).splitlines()[0])
    rejected = int((~torch.isclose(compiled, eager, rtol=1.3e-6, atol=1e-5)).sum())
    print("rows it rejects: some, fewer than 1 in 5:", 0 < rejected < 64 / 5)
# The minifier's test: compiled's RMSE against float64 within 3x eager's RMSE (+ tol / 10); 3x for under 1000 elements
print("same() against a float64 reference:", same(eager, compiled, fp64_ref=fp64, tol=1e-3))


def noisy(x):
    return x + torch.rand_like(x)


for fallback_random in (False, True):
    torch._dynamo.reset()
    torch._inductor.config.fallback_random = fallback_random
    torch.manual_seed(0)
    expected = noisy(x)
    torch.manual_seed(0)
    got = torch.compile(noisy)(x)
    print(f"fallback_random={fallback_random}: same random numbers as eager:", torch.equal(expected, got))
