#| devices: cuda
import torch

torch.manual_seed(0)
dev = torch.device("cuda")
main = torch.cuda.current_stream()
side = torch.cuda.Stream()
print("current is default:", main == torch.cuda.default_stream())

host = torch.randn(4096, 4096).pin_memory()   # the next batch, in page-locked memory
w = torch.randn(4096, 4096, device=dev)
x = torch.randn(4096, 4096, device=dev)

start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
start.record()
with torch.cuda.stream(side):                  # copy the next batch on the side stream
    nxt = host.to(dev, non_blocking=True)      # allocated from the side stream's pool
y = x @ w                                      # meanwhile, compute on the main stream
main.wait_stream(side)                         # main's later work waits for the copy
nxt.record_stream(main)                        # nxt is used on main: tell the allocator
z = nxt @ w
end.record()
end.synchronize()                              # CPU waits for the end event only
print("elapsed_time is a float (ms):", isinstance(start.elapsed_time(end), float))
print("copy arrived intact:", torch.equal(nxt.cpu(), host))
print("z matches:", torch.allclose(z, host.to(dev) @ w))
