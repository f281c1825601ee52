#| devices: cpu
import torch

# An op that autocast changes has a kernel registered for the device's autocast
# dispatch key. Every other op falls through and runs in its inputs' dtype.
ops = torch._C._dispatch_get_all_op_names()
for key in ("AutocastCPU", "AutocastCUDA"):
    n = sum(torch._C._dispatch_has_kernel_for_dispatch_key(op, key) for op in ops)
    print(f"ops with an {key} kernel: {n}")

print(f"{'op':28} {'AutocastCPU':>11} {'AutocastCUDA':>12}")
for op in ("aten::linear", "aten::mm", "aten::conv2d", "aten::mse_loss",
           "aten::cross_entropy_loss", "aten::layer_norm", "aten::softmax.int",
           "aten::sum", "aten::exp", "aten::relu", "aten::add.Tensor"):
    cpu = torch._C._dispatch_has_kernel_for_dispatch_key(op, "AutocastCPU")
    cuda = torch._C._dispatch_has_kernel_for_dispatch_key(op, "AutocastCUDA")
    print(f"{op:28} {cpu!s:>11} {cuda!s:>12}")
