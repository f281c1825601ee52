import io
import itertools

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

SEED, EPOCHS, BATCH = 0, 2, 4           # 32 samples: 8 steps an epoch, 16 in all
STOP = 11                               # the job dies after step 11 (epoch 1, 3 batches in)
torch.manual_seed(SEED)
data = TensorDataset(torch.randn(32, 8), torch.randn(32, 1))


def start():
    """What the script does on every start, a restart included: seed, build everything."""
    torch.manual_seed(SEED)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=0.01)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=4, gamma=0.5)
    return model, opt, sched


def batches(epoch, skip):
    g = torch.Generator().manual_seed(SEED + epoch)    # the order depends on (seed, epoch) only
    loader = DataLoader(data, batch_size=BATCH, shuffle=True, generator=g)
    return itertools.islice(loader, skip, None)         # skip the batches already trained on


def train(model, opt, sched, pos, stop=None):
    global steps
    epoch, done = pos
    for epoch in range(epoch, EPOCHS):
        for x, y in batches(epoch, done):
            loss = nn.functional.mse_loss(model(x), y)  # dropout draws from the global RNG
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            steps += 1
            done += 1
            if stop is not None and epoch * 8 + done == stop:
                return epoch, done
        done = 0


# the uninterrupted run
steps = 0
model, opt, sched = start()
train(model, opt, sched, (0, 0))
reference = torch.cat([p.detach().flatten() for p in model.parameters()])

# the interrupted run: train to step 11, save, die
steps = 0
model, opt, sched = start()
pos = train(model, opt, sched, (0, 0), stop=STOP)
buf = io.BytesIO()
torch.save({"model": model.state_dict(), "optim": opt.state_dict(),
            "sched": sched.state_dict(), "rng": torch.get_rng_state(), "pos": pos}, buf)
print("saved at (epoch, batches done):", pos)

for missing in [None, "model", "optim", "sched", "rng", "pos"]:
    buf.seek(0)
    ckpt = torch.load(buf)
    model, opt, sched = start()                         # the restarted process
    steps = STOP                                        # steps run before the failure
    if missing != "model":
        model.load_state_dict(ckpt["model"])
    if missing != "optim":
        opt.load_state_dict(ckpt["optim"])
    if missing != "sched":
        sched.load_state_dict(ckpt["sched"])
    if missing != "rng":
        torch.set_rng_state(ckpt["rng"])
    resume_at = ckpt["pos"] if missing != "pos" else (ckpt["pos"][0], 0)
    train(model, opt, sched, resume_at)
    final = torch.cat([p.detach().flatten() for p in model.parameters()])
    label = "reload everything" if missing is None else f"skip {missing}"
    print(f"{label:17}: {steps} steps, final lr {opt.param_groups[0]['lr']:.6f},"
          f" weights equal to the uninterrupted run: {torch.equal(final, reference)}")
