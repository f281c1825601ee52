#| expect: ValueError
import torch
from torch import nn


class V1(nn.Module):
    def __init__(self, d=4):
        super().__init__()
        self.encoder = nn.Linear(4, d)
        self.head = nn.Linear(d, 4)


class V2(nn.Module):  # the same layers, registered in the other order
    def __init__(self, d=4):
        super().__init__()
        self.head = nn.Linear(d, 4)
        self.encoder = nn.Linear(4, d)


def trained_adam(model):
    opt = torch.optim.Adam(model.named_parameters(), lr=0.1)
    model.head(model.encoder(torch.randn(8, 4)).relu()).pow(2).mean().backward()
    opt.step()
    return opt


torch.manual_seed(0)
old = V1()
saved = trained_adam(old).state_dict()
group = saved["param_groups"][0]
print("saved param_groups:", group["params"], group["param_names"])
moments = {name: saved["state"][i]["exp_avg"] for i, name in enumerate(group["param_names"])}

new = V2()
new.load_state_dict(old.state_dict())  # the model loads by name: fine
opt = torch.optim.Adam(new.named_parameters(), lr=0.1)
opt.load_state_dict(saved)  # the optimizer loads by position: no error
for name, p in new.named_parameters():
    owner = [k for k, m in moments.items() if m.shape == p.shape and torch.equal(m, opt.state[p]["exp_avg"])]
    print(f"new {name:14} now holds the exp_avg of {owner}")

# Same count, other shapes: the load passes, the first step fails.
old, new = V1(d=8), V2(d=8)
saved = trained_adam(old).state_dict()
opt = torch.optim.Adam(new.parameters(), lr=0.1)
opt.load_state_dict(saved)
print("loaded; new head.weight", tuple(new.head.weight.shape), "holds exp_avg",
      tuple(opt.state[new.head.weight]["exp_avg"].shape))
new.head(new.encoder(torch.randn(8, 4)).relu()).pow(2).mean().backward()
try:
    opt.step()
except RuntimeError as e:
    print("opt.step():", type(e).__name__, e)

# One parameter more: the count differs and load_state_dict raises.
extra = nn.Parameter(torch.zeros(1))
opt = torch.optim.Adam([extra, *new.parameters()], lr=0.1)
opt.load_state_dict(saved)
