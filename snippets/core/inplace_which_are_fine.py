import torch

w = torch.tensor([1.0, 2.0, 3.0])


def mul_by_number_then_add_(x):
    return (x * 2).add_(1)        # mul by a number saves no tensor of x's


def add_then_mul_(x):
    return (x + w).mul_(2)        # add saves no tensor


def mul_then_relu_(x):
    return (x * w).relu_()        # mul saved w (for x's gradient), not its output


def exp_then_add_(x):
    return x.exp().add_(1)        # exp saved its output


def relu_then_mul_(x):
    return x.relu().mul_(2)       # relu saved its output


def square_then_modify_input(x):
    y = x + 0
    out = y * y                   # mul saved y (twice)
    y.add_(1)                     # then y changes
    return out


for build in [mul_by_number_then_add_, add_then_mul_, mul_then_relu_, exp_then_add_,
              relu_then_mul_, square_then_modify_input]:
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    try:
        build(x).sum().backward()
        result = "backward ok"
    except RuntimeError as err:
        result = "RuntimeError: " + str(err).split(":")[0][:40] + "..."
    print(f"{build.__name__:26} {result}")

# What each node saved (None: a slot the formula does not need here).
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
for label, out in [("x * 2", x * 2), ("x * w", x * w), ("x * x", x * x), ("x + w", x + w),
                   ("x.relu()", x.relu())]:
    node = out.grad_fn
    saved = {name.removeprefix("_saved_"): getattr(node, name)
             for name in dir(node) if name.startswith("_saved_")}
    print(f"{label:9} {type(node).__name__:14} saved: {saved}")
