import torch

torch.manual_seed(0)
fp8 = torch.float8_e4m3fn
E4M3_EMAX = 8                              # 448 = 1.75 * 2**8: largest power of two exponent

# Four blocks of 32 values at very different magnitudes.
x = torch.cat([torch.randn(32) * m for m in (1e-3, 1.0, 30.0, 2e3)])
blocks = x.view(-1, 32)

# MX: one shared power-of-two scale per 32 elements, stored as E8M0 (8 exponent bits).
amax = blocks.abs().amax(dim=1, keepdim=True)
exp = torch.floor(torch.log2(amax)) - E4M3_EMAX
scale = torch.exp2(exp).to(torch.float8_e8m0fnu)
print("block scale exponents:", exp.flatten().int().tolist())
print("scale dtype", scale.dtype, " bytes", scale.element_size())
scaled = blocks / scale.float()
print("largest |x / scale| per block:", [round(v, 1) for v in scaled.abs().amax(dim=1).tolist()],
      " values above 448 (saturated by the cast):", (scaled.abs() > 448).sum().item())
q = scaled.to(fp8)
mx = q.float() * scale.float()

s_t = x.abs().amax() / torch.finfo(fp8).max          # one tensorwise scale, for comparison
tw = ((x / s_t).to(fp8).float() * s_t).view(-1, 32)

for i, name in enumerate(["1e-3", "1", "30", "2e3"]):
    e_mx = ((mx[i] - blocks[i]).norm() / blocks[i].norm()).item()
    e_tw = ((tw[i] - blocks[i]).norm() / blocks[i].norm()).item()
    print(f"block ~{name:5s} rel. error  MX {e_mx:.3f}   tensorwise {e_tw:.3f}")
print("bits per value (8 + 8/32):", 8 + 8 / 32)
print("E8M0 cast of 3.0 and 0.3:", torch.tensor([3.0, 0.3]).to(torch.float8_e8m0fnu).float().tolist())
