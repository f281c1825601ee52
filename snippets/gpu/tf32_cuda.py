#| devices: cuda
import torch
import torch.nn.functional as F

torch.manual_seed(0)
print(torch.cuda.get_device_name(), "capability", torch.cuda.get_device_capability())
a = torch.randn(2048, 2048, device="cuda")
b = torch.randn(2048, 2048, device="cuda")
exact = a.double() @ b.double()

for precision in ["highest", "high", "medium"]:
    torch.set_float32_matmul_precision(precision)
    err = ((a @ b).double() - exact).abs().max() / exact.abs().max()
    print(f"matmul {precision:<8} max rel. error {err.item():.0e}")
torch.set_float32_matmul_precision("highest")

x = torch.randn(8, 64, 32, 32, device="cuda")
w = torch.randn(64, 64, 3, 3, device="cuda")
ref = F.conv2d(x.double(), w.double(), padding=1)
for allow in [True, False]:  # cudnn.allow_tf32 is True by default
    torch.backends.cudnn.allow_tf32 = allow
    err = (F.conv2d(x, w, padding=1).double() - ref).abs().max() / ref.abs().max()
    print(f"conv2d cudnn.allow_tf32={allow!s:<5} max rel. error {err.item():.0e}")
