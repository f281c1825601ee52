#| devices: cpu
#| expect: torch.fx.experimental.symbolic_shapes.ConstraintViolationError
import logging

import torch

logging.getLogger("torch._guards").setLevel(logging.CRITICAL)  # its error log repeats the exception


def f(x):
    return x.reshape(2, 2, 3) * 2  # only a size of 4 fits: this pins dim 0 to 4


x = torch.ones(4, 3)
torch._dynamo.maybe_mark_dynamic(x, 0)  # a hint: specializing is allowed
print("maybe_mark_dynamic: compiled and ran, output shape", tuple(torch.compile(f, backend="eager")(x).shape))

torch._dynamo.reset()
x = torch.ones(4, 3)
torch._dynamo.mark_dynamic(x, 0)  # a promise: specializing is an error
torch.compile(f, backend="eager")(x)
