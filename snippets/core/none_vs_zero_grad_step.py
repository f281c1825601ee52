import torch


def moved_after_step(opt_cls, set_to_none, **kwargs):
    torch.manual_seed(0)
    model = torch.nn.Linear(2, 1)
    opt = opt_cls(model.parameters(), lr=0.1, **kwargs)
    model(torch.randn(3, 2)).sum().backward()
    opt.step()                              # a real step, to build optimizer state
    opt.zero_grad(set_to_none=set_to_none)  # then no new backward
    before = model.weight.detach().clone()
    opt.step()                              # step with a None or a zero gradient
    return not torch.equal(before, model.weight)


for name, cls, kwargs in [
    ("SGD", torch.optim.SGD, {}),
    ("SGD momentum=0.9", torch.optim.SGD, {"momentum": 0.9}),
    ("SGD weight_decay=0.1", torch.optim.SGD, {"weight_decay": 0.1}),
    ("Adam", torch.optim.Adam, {}),
]:
    print(f"{name:22} grad None moves weight: {moved_after_step(cls, True, **kwargs)!s:5}"
          f" | grad zeros moves weight: {moved_after_step(cls, False, **kwargs)}")
