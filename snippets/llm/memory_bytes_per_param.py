import torch

torch.manual_seed(0)


def training_bytes(dtype):
    """Bytes per parameter held after one AdamW step: weights, gradients, optimizer state."""
    model = torch.nn.Linear(256, 256, bias=False).to(dtype)
    opt = torch.optim.AdamW(model.parameters())
    model(torch.randn(8, 256, dtype=dtype)).sum().backward()
    opt.step()
    p = model.weight
    state = opt.state[p]
    n = p.numel()
    return (p.nbytes / n, p.grad.nbytes / n,
            {k: (str(v.dtype).removeprefix("torch."), v.nbytes / n) for k, v in state.items() if v.dim() > 0})


for dtype in (torch.float32, torch.bfloat16):
    w, g, states = training_bytes(dtype)
    print(f"{str(dtype):<15} weight {w} B, grad {g} B, AdamW state {states}")

# arithmetic for a 7e9-parameter model, bytes per parameter by recipe
n = 7e9
recipes = {
    "inference, bf16 weights": 2,
    "inference, int8 weights": 1,
    "inference, 4-bit weights": 0.5,
    "training fp32 + AdamW (4 + 4 + 4 + 4)": 16,
    "mixed: bf16 weight+grad, fp32 master + AdamW (2 + 2 + 4 + 4 + 4)": 16,
    "pure bf16 + bf16 AdamW states (2 + 2 + 2 + 2)": 8,
}
for name, bpp in recipes.items():
    print(f"{name:<66} {bpp:>4} B/param -> {n * bpp / 2**30:6.1f} GiB")
