import os
import tempfile

import torch
from torch import nn

N = 6  # training steps in all; the interrupted runs stop after N // 2


def build():
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    return model, opt, sched


def train(model, opt, sched, steps):
    lrs = []  # the learning rate each step used
    for _ in range(steps):
        x, y = torch.randn(32, 8), torch.randn(32, 1)  # data and dropout both draw from the global RNG
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        lrs.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return lrs


torch.manual_seed(0)
straight = build()
straight_lrs = train(*straight, N)


def interrupted(save_optimizer, save_scheduler, save_rng):  # uses tmp, set below
    torch.manual_seed(0)
    model, opt, sched = build()
    train(model, opt, sched, N // 2)
    path = os.path.join(tmp, "ckpt.pt")
    ckpt = {"model": model.state_dict(), "step": N // 2}
    if save_optimizer:
        ckpt["optimizer"] = opt.state_dict()
    if save_scheduler:
        ckpt["scheduler"] = sched.state_dict()
    if save_rng:
        ckpt["rng"] = torch.get_rng_state()
    torch.save(ckpt, path)

    torch.manual_seed(123)  # a new process: other weights, other RNG state
    model, opt, sched = build()
    ckpt = torch.load(path)  # weights_only=True: all of this is allowed
    model.load_state_dict(ckpt["model"])
    if save_optimizer:
        opt.load_state_dict(ckpt["optimizer"])
    if save_scheduler:
        sched.load_state_dict(ckpt["scheduler"])
    if save_rng:
        torch.set_rng_state(ckpt["rng"])
    lrs = train(model, opt, sched, N - ckpt["step"])
    return model, lrs


opt_state = straight[1].state_dict()
print("optimizer state_dict:", list(opt_state), "| state of param 0:", list(opt_state["state"][0]))
group = opt_state["param_groups"][0]
print("param_groups[0]['params']:", group["params"], "| lr now:", group["lr"])

ref = straight[0].state_dict()
print(f"straight run, lr of steps {N // 2 + 1}-{N}:", straight_lrs[N // 2:])
with tempfile.TemporaryDirectory() as tmp:
    runs = [(True, True, True), (False, True, True), (True, False, True), (True, True, False)]
    for save_optimizer, save_scheduler, save_rng in runs:
        model, lrs = interrupted(save_optimizer, save_scheduler, save_rng)
        same = all(torch.equal(ref[k], v) for k, v in model.state_dict().items())
        print(f"model + optimizer={save_optimizer!s:5} scheduler={save_scheduler!s:5}",
              f"RNG={save_rng!s:5}: resumed lrs {lrs}, bit-identical to {N} straight steps: {same}")
