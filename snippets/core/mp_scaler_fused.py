#| devices: cpu
import torch

torch.manual_seed(0)
for fused in (False, True):
    model = torch.nn.Linear(2, 1)
    opt = torch.optim.Adam(model.parameters(), lr=0.1, fused=fused)
    calls = []
    opt.register_step_pre_hook(lambda *_: calls.append("step"))
    scaler = torch.amp.GradScaler("cpu")
    scaler.scale(model(torch.ones(1, 2)).sum() * float("inf")).backward()  # inf gradients
    before = model.weight.detach().clone()
    scaler.step(opt)
    scaler.update()
    print(f"Adam(fused={fused!s:5}): _step_supports_amp_scaling {getattr(opt, '_step_supports_amp_scaling', False)!s:5}"
          f" | optimizer.step() called: {bool(calls)!s:5} | weight changed: {not torch.equal(before, model.weight)}"
          f" | next scale {scaler.get_scale():.0f}")
