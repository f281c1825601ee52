import torch

a = torch.zeros(4)
print("new tensor:         ", a._version)
a.add_(1)
print("after add_:         ", a._version)
a[0] = 5
print("after a[0] = 5:     ", a._version)
torch.mul(a, 2, out=a)
print("after out=a:        ", a._version)
a += 1
print("after a += 1:       ", a._version)
b = a + 1
print("a + 1 (a unchanged):", a._version, "| new tensor b:", b._version)

view = a[1:]               # a view shares its base's counter
view.zero_()
print("view.zero_(): view", view._version, "| a", a._version)

d = a.detach()             # detach shares storage and the counter
d.fill_(3)
print("detach().fill_():   ", a._version)

a.data.fill_(7)            # .data is not tracked: no bump
print("a.data.fill_(7):    ", a._version)
