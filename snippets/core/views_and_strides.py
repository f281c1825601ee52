import torch

x = torch.arange(12).reshape(3, 4)
t = x.t()  # a view: same storage, strides swapped
print("x shape", tuple(x.shape), "stride", x.stride(), "contiguous", x.is_contiguous())
print("t shape", tuple(t.shape), "stride", t.stride(), "contiguous", t.is_contiguous())
print("t shares x's storage:", t.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())

v = x.view(4, 3)  # fine: x is contiguous
print("x.view(4, 3) shares storage:", v.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())

r = t.reshape(12)  # t cannot be viewed as 1-D, so reshape copies
print("t.reshape(12) shares storage:", r.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
r2 = x.reshape(2, 6)  # x can be viewed, so reshape returns a view
print("x.reshape(2, 6) shares storage:", r2.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())

c = t.contiguous()  # a copy laid out row-major for t's shape
print("t.contiguous() stride", c.stride(), "shares storage:",
      c.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())

big = torch.zeros(1000, 1000)
row = big[0].view(10, 100)  # 1,000 elements, as a view
del big
print("row keeps a storage of", row.untyped_storage().nbytes(), "bytes")
