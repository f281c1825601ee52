import torch

torch.manual_seed(0)
fp8 = torch.float8_e4m3fn
MAX = torch.finfo(fp8).max                           # 448

a = torch.randn(4, 64)
a[0] *= 10_000                                       # one row with an outlier-sized scale
b = torch.randn(64, 32)

# Tensorwise: one float32 scale for the whole tensor, amax / 448.
s_t = a.abs().amax() / MAX
# Rowwise: one scale per row.
s_r = a.abs().amax(dim=1, keepdim=True) / MAX
qa_t, qa_r = (a / s_t).to(fp8), (a / s_r).to(fp8)

def rel_err(q, s, rows):
    deq = q.float() * s
    return ((deq - a)[rows].norm() / a[rows].norm()).item()

print("scales  tensorwise", round(s_t.item(), 2), " rowwise", [round(v, 4) for v in s_r.flatten().tolist()])
print("rows 1-3 zeros after cast  tensorwise", (qa_t[1:].float() == 0).sum().item(),
      " rowwise", (qa_r[1:].float() == 0).sum().item(), "of", a[1:].numel())
print(f"rows 1-3 rel. error  tensorwise {rel_err(qa_t, s_t, slice(1, 4)):.3f}"
      f"  rowwise {rel_err(qa_r, s_r, slice(1, 4)):.3f}")

# torch._scaled_mm on CPU: fp8 inputs, float32 scales that multiply back (dequantise).
s_b = b.abs().amax() / MAX
qb = (b / s_b).to(fp8)
out = torch._scaled_mm(qa_t, qb, scale_a=s_t, scale_b=s_b, out_dtype=torch.bfloat16)
print("_scaled_mm out_dtype=bf16 ->", out.dtype)
print("_scaled_mm no out_dtype   ->", torch._scaled_mm(qa_t, qb, scale_a=s_t, scale_b=s_b).dtype)
ref = (qa_t.float() * s_t) @ (qb.float() * s_b)
print("equals dequantise-then-matmul (bf16 tolerance):",
      torch.allclose(out.float(), ref, rtol=1e-2, atol=1e-2 * ref.abs().max().item()))
s_bc = b.abs().amax(dim=0, keepdim=True) / MAX      # rowwise for b: one scale per column
out_r = torch._scaled_mm(qa_r, (b / s_bc).to(fp8), scale_a=s_r, scale_b=s_bc,
                         out_dtype=torch.bfloat16)
print("rowwise _scaled_mm shape", tuple(out_r.shape), out_r.dtype)
