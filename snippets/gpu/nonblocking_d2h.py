#| devices: cuda
import torch

torch.manual_seed(0)
a = torch.randn(8192, 8192, device="cuda")
for _ in range(20):                       # queue enough GPU work that the copy waits behind it
    a = torch.tanh(a @ a.T / 8192)
b = a[:1024] * 2                          # queued, not finished, when the next lines run

host = torch.zeros(1024, 8192, pin_memory=True)
host.copy_(b, non_blocking=True)          # device-to-host, asynchronous with respect to the CPU
early = host.clone()                      # reads host before the copy is known to be done
torch.cuda.synchronize()
ref = b.cpu()                             # a blocking copy: the true values
print("read before synchronize equal:", torch.equal(early, ref))
print("read after synchronize equal:", torch.equal(host, ref))

# The fix without a device-wide sync: wait on an event recorded after the copy.
host.zero_()
done = torch.cuda.Event()
host.copy_(b, non_blocking=True)
done.record()
done.synchronize()
print("read after event.synchronize equal:", torch.equal(host, ref))

# Host-to-device from pinned memory: the CPU returns at once, the stream keeps the order.
src = torch.randn(1024, 8192).pin_memory()
dev = src.to("cuda", non_blocking=True)
print("H2D then use on the same stream equal:", torch.equal(dev.cpu(), src))
