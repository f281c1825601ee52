import os
import sys
import tempfile

import torch

torch.manual_seed(0)
print("CPU capability:", torch.backends.cpu.get_cpu_capability())

a = torch.randn(512, 512)
b = torch.randn(512, 512)
exact = a.double() @ b.double()  # float64 reference


def onednn_matmul(fn):
    """Run fn with oneDNN's verbose log on; return (result, what its log says about matmul)."""
    with tempfile.TemporaryFile(mode="w+") as log:
        sys.stdout.flush()
        saved = os.dup(1)
        os.dup2(log.fileno(), 1)  # oneDNN writes its log to the C stdout
        try:
            with torch.backends.mkldnn.verbose(torch.backends.mkldnn.VERBOSE_ON):
                out = fn()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        log.seek(0)
        rows = [r.split(",") for r in log if ",primitive,exec," in r and ",matmul," in r]
    # fields: ..., primitive, exec, cpu, matmul, implementation, prop, memory, attributes, ...
    said = [f"{r[6]} {' '.join(x for x in r[9].split() if 'fpmath' in x)}" for r in rows]
    return out, said[0] if said else "no oneDNN matmul"


for precision in ["highest", "high", "medium"]:
    torch.set_float32_matmul_precision(precision)
    out, said = onednn_matmul(lambda: a @ b)
    err = ((out.double() - exact).abs().max() / exact.abs().max()).item()
    print(f"{precision:<8} mkldnn.matmul.fp32_precision={torch.backends.mkldnn.matmul.fp32_precision:<5}"
          f" cuda.matmul.allow_tf32={torch.backends.cuda.matmul.allow_tf32!s:<5}"
          f" out {out.dtype}, max rel. error {err:.0e}, {said}")
torch.set_float32_matmul_precision("highest")

# For scale: the same inputs rounded to bfloat16 (7 stored mantissa bits) first.
a16, b16 = a.bfloat16().double(), b.bfloat16().double()
err16 = ((a16 @ b16 - exact).abs().max() / exact.abs().max()).item()
print(f"inputs rounded to bfloat16: max rel. error {err16:.0e}")
