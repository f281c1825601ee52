#| timeout: 240
import torch


def f(x):
    # dropout draws random numbers; with x of ones every value is exact (0 or 6)
    return torch.nn.functional.dropout(x, p=0.5, training=True) * 3


def same_as_eager(**compile_kwargs):
    torch._dynamo.reset()
    x = torch.ones(16)
    torch.manual_seed(0)
    expected = f(x)
    torch.manual_seed(0)
    got = torch.compile(f, **compile_kwargs)(x)
    return torch.equal(expected, got)


# Bisect: add one layer of the stack at a time.
print("eager      (Dynamo only)          :", same_as_eager(backend="eager"))
print("aot_eager  (Dynamo + AOTAutograd) :", same_as_eager(backend="aot_eager"))
print("inductor   (+ Inductor codegen)   :", same_as_eager(backend="inductor"))
# The difference appears with Inductor only: its own RNG. The debug flag falls back to ATen's.
print("inductor, fallback_random=True    :",
      same_as_eager(backend="inductor", options={"fallback_random": True}))
