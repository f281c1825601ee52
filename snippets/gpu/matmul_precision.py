import os
import sys
import tempfile

import torch

torch.manual_seed(0)
a = torch.randn(512, 512)
b = torch.randn(512, 512)
exact = a.double() @ b.double()  # float64 reference


def onednn_matmul(fn):
    """Run fn with oneDNN's verbose log on; return (result, the attributes of each oneDNN matmul)."""
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
    return out, [r[9] for r in rows]


# The record must read the same on any CPU, and which kernel runs does not: with "medium" a CPU
# with bf16 support (AVX-512 BF16) runs the matmul in oneDNN with bf16 math allowed
# (brg_matmul:avx512_core, attr-fpmath:bf16; the error doubles, to 8e-07), an AVX2 CPU in MKL
# as with the other settings. So the error is printed against a bound, and the kernel as a rule.
ran = {}
for precision in ["highest", "high", "medium"]:
    torch.set_float32_matmul_precision(precision)
    out, attributes = onednn_matmul(lambda: a @ b)
    ran[precision] = attributes
    err = ((out.double() - exact).abs().max() / exact.abs().max()).item()
    print(f"{precision:<8} mkldnn.matmul.fp32_precision={torch.backends.mkldnn.matmul.fp32_precision:<5}"
          f" cuda.matmul.allow_tf32={torch.backends.cuda.matmul.allow_tf32!s:<5}"
          f" out {out.dtype}, max rel. error below 1e-06: {err < 1e-6}")
torch.set_float32_matmul_precision("highest")
print("'highest' and 'high' ran a oneDNN matmul:", bool(ran["highest"] or ran["high"]))
bf16_math = any("fpmath:bf16" in attrs for attrs in ran["medium"])
print("'medium' ran a oneDNN matmul with bf16 math allowed exactly where the CPU supports bf16:",
      bf16_math == torch.ops.mkldnn._is_mkldnn_bf16_supported())

# For scale: the same inputs rounded to bfloat16 (7 stored mantissa bits) first.
a16, b16 = a.bfloat16().double(), b.bfloat16().double()
err16 = ((a16 @ b16 - exact).abs().max() / exact.abs().max()).item()
print(f"inputs rounded to bfloat16: max rel. error {err16:.0e}")
