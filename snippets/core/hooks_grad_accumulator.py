import torch

torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
x = torch.randn(4, 3)
fired = []


def hook_accumulators(keep):
    for name, p in lin.named_parameters():
        # How DDP's mixed-precision path reaches a parameter's gradient accumulator:
        acc = p.expand_as(p).grad_fn.next_functions[0][0]
        acc.register_hook(lambda grad_inputs, grad_outputs, name=name: fired.append(name))
        keep.append(acc)  # the parameter holds its accumulator only weakly


kept = []
hook_accumulators(kept)
print("node:", kept[0].name())
lin(x).sum().backward()
print("loss.backward():       hooks fired for", fired)
fired.clear()
torch.autograd.grad(lin(x).sum(), list(lin.parameters()))
print("torch.autograd.grad(): hooks fired for", fired)

kept.clear()  # drop the nodes: the parameters get new accumulators, without the hooks
fired.clear()
lin(x).sum().backward()
print("nodes not kept, loss.backward(): hooks fired for", fired)
