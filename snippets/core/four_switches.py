import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(p=0.5))
x = torch.ones(2, 4)


def report(label, out):
    zeros = (out == 0).sum().item()
    print(f"{label:30} requires_grad={out.requires_grad!s:5}  grad_fn={type(out.grad_fn).__name__:16}"
          f" zeros from dropout={zeros}")


model.train()
report("train mode", model(x))
with torch.no_grad():
    report("train mode + no_grad", model(x))
with torch.inference_mode():
    report("train mode + inference_mode", model(x))
report("train mode, then detach()", model(x).detach())

model.eval()
report("eval mode", model(x))
with torch.no_grad():
    report("eval mode + no_grad", model(x))
