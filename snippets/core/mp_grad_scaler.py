#| devices: cpu
import torch
import torch.nn.functional as F

torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
# growth_interval=2 (default 2000) so the scale grows within a few steps
scaler = torch.amp.GradScaler("cpu", init_scale=2.0**16, growth_interval=2)
x, y = torch.randn(8, 4), torch.randn(8, 1)

for step in range(5):
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16):
        out = model(x)
        loss = F.mse_loss(out, y)
    if step == 0:
        # The weight was cast to fp16 for the matmul: AddmmBackward0 -> TBackward0 -> ToCopyBackward0.
        t = next(f for f, _ in out.grad_fn.next_functions if type(f).__name__ == "TBackward0")
        to_copy = t.next_functions[0][0]
        to_copy.register_prehook(lambda g: print(
            f"step 0: {type(to_copy).__name__} receives the weight's gradient as {g[0].dtype},"
            f" finite: {g[0].isfinite().all().item()}"))
        out.register_hook(lambda g: print(
            f"step 0: gradient of the Linear's output: {g.dtype}, finite: {g.isfinite().all().item()}"))
        print(f"step 0: loss {loss.item():.3f}, scaled loss {loss.item() * scaler.get_scale():.0f}:"
              f" finite: {torch.isfinite(loss * scaler.get_scale()).item()}")
    scale = scaler.get_scale()
    scaler.scale(loss).backward()  # backward of loss * scale
    scaled_grad = model.weight.grad.clone()
    scaler.unscale_(opt)  # grads /= scale, and record whether any is inf or nan
    if step == 2:
        print("unscaled grad == scaled grad / scale:",
              torch.allclose(model.weight.grad, scaled_grad / scale))
    before = model.weight.detach().clone()
    scaler.step(opt)  # skips opt.step() if an inf or nan was found
    scaler.update()  # halve the scale after a skip; double it after growth_interval good steps
    print(f"step {step}: scale {scale:>7.0f}  grads finite {scaled_grad.isfinite().all().item()!s:5}"
          f"  optimizer stepped {not torch.equal(before, model.weight)!s:5}  next scale {scaler.get_scale():.0f}")
print("weight dtype:", model.weight.dtype, "| grad dtype:", model.weight.grad.dtype)
