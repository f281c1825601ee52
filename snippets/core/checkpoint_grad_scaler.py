#| devices: cpu
import io

import torch
import torch.nn.functional as F

torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 4), torch.randn(8, 1)


def train_step(scaler):
    before = model.weight.detach().clone()
    scale = scaler.get_scale()
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16):
        loss = F.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(opt)  # skipped when the unscaled gradients hold inf or NaN
    scaler.update()  # halves the scale after a skip, doubles it after growth_interval good steps
    return f"scale {scale}, step taken: {not torch.equal(before, model.weight)}"


scaler = torch.amp.GradScaler("cpu", growth_interval=2)  # default growth_interval is 2000
for step in range(3):
    print(f"step {step}:", train_step(scaler))

buf = io.BytesIO()
torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "scaler": scaler.state_dict()}, buf)
print("scaler.state_dict():", scaler.state_dict())
buf.seek(0)
ckpt = torch.load(buf)  # floats and ints: the default weights_only=True loads it

for load_scaler in (False, True):
    model.load_state_dict(ckpt["model"])
    opt.load_state_dict(ckpt["optimizer"])
    resumed = torch.amp.GradScaler("cpu", growth_interval=2)
    if load_scaler:
        resumed.load_state_dict(ckpt["scaler"])
    print(f"resumed, scaler state loaded={load_scaler!s:5}: step 3:", train_step(resumed))
