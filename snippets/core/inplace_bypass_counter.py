import torch

torch.manual_seed(0)
x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
right = torch.autograd.grad(x.sigmoid().sum(), x)[0]
print("gradient right:            ", right)

# sigmoid saves its output y; each write below changes y after it was saved
y = x.sigmoid()
y.detach().numpy()[:] *= 2  # through a NumPy view of the same memory
print("after numpy write, y._version:", y._version, "| grad:", torch.autograd.grad(y.sum(), x)[0])

y = x.sigmoid()
y.untyped_storage().fill_(0)  # through the raw storage (bytes set to 0)
print("after storage write, y._version:", y._version, "| grad:", torch.autograd.grad(y.sum(), x)[0])


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.a = a  # kept on ctx, not with save_for_backward: no version check
        return a * a

    @staticmethod
    def backward(ctx, g):
        return 2 * ctx.a * g


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 1
out = Square.apply(b)
b.mul_(10)  # bumps b's counter, but nothing checks it
print("ctx-kept tensor changed: grad", torch.autograd.grad(out.sum(), a)[0], "| right: tensor([2., 4., 6.])")
