import torch

torch.manual_seed(0)
bn = torch.nn.BatchNorm1d(2)
val = torch.randn(8, 2) + 5.0  # a validation batch

print("running_mean before:       ", bn.running_mean)
with torch.no_grad():  # no_grad alone: still train mode
    bn(val)
print("after no_grad, train mode: ", bn.running_mean)

bn.eval()
before = bn.running_mean.clone()
with torch.no_grad():
    bn(val)
print("after no_grad, eval mode unchanged:", torch.equal(before, bn.running_mean))
