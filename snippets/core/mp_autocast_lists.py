#| devices: cpu
import torch
import torch.nn.functional as F
from torch._subclasses.fake_tensor import FakeTensorMode

# An op that autocast changes has a kernel registered for the device's autocast
# dispatch key. Every other op falls through and runs in its inputs' dtype.
# Counted: operator overloads (aten::softmax.int, ...) known to the dispatcher after `import torch`.
ops = torch._C._dispatch_get_all_op_names()
for key in ("AutocastCPU", "AutocastCUDA"):
    n = sum(torch._C._dispatch_has_kernel_for_dispatch_key(op, key) for op in ops)
    print(f"operator overloads with an {key} kernel: {n}")

print(f"{'op':28} {'AutocastCPU':>11} {'AutocastCUDA':>12}")
for op in ("aten::linear", "aten::mm", "aten::conv2d", "aten::mse_loss",
           "aten::cross_entropy_loss", "aten::layer_norm", "aten::softmax.int",
           "aten::sum", "aten::exp", "aten::relu", "aten::add.Tensor"):
    cpu = torch._C._dispatch_has_kernel_for_dispatch_key(op, "AutocastCPU")
    cuda = torch._C._dispatch_has_kernel_for_dispatch_key(op, "AutocastCUDA")
    print(f"{op:28} {cpu!s:>11} {cuda!s:>12}")

# What the AutocastCUDA kernels (compiled into this CPU build too) do, without a GPU:
# fake tensors on "cuda" carry only shape, dtype and device, so the kernels' casts show in
# the output dtypes. torch.autocast("cuda") would disable itself here (no CUDA), so the
# autocast state is set directly.
with FakeTensorMode():
    x, w = torch.empty(4, 16, device="cuda"), torch.empty(16, 16, device="cuda")
    torch.set_autocast_enabled("cuda", True)
    torch.set_autocast_dtype("cuda", torch.float16)
    try:
        h = F.linear(x, w)
        print("fake CUDA tensors, fp32 in, under CUDA fp16 autocast:")
        print("  linear:", h.dtype, "| on its fp16 output: relu:", h.relu().dtype,
              "layer_norm:", F.layer_norm(h, (16,)).dtype, "softmax:", h.softmax(-1).dtype,
              "sum:", h.sum().dtype)
        try:
            F.binary_cross_entropy(torch.rand(4, device="cuda"), torch.rand(4, device="cuda"))
        except RuntimeError as e:
            print("  binary_cross_entropy: RuntimeError:", str(e).splitlines()[0])
    finally:
        torch.set_autocast_enabled("cuda", False)
