#| expect: RuntimeError
import torch

torch.manual_seed(0)

# A full backward hook makes the module's output a view made by a custom Function;
# the in-place ReLU after it then modifies that view.
net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(inplace=True))
net[0].register_full_backward_hook(lambda m, gin, gout: None)
net(torch.randn(4, 3, requires_grad=True)).sum().backward()
