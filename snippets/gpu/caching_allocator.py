#| devices: cuda
import torch

MiB = 2**20
torch.manual_seed(0)
torch.cuda.init()


def show(label):
    alloc = torch.cuda.memory_allocated()
    reserved = torch.cuda.memory_reserved()
    print(f"{label:<28} allocated {alloc / MiB:8.2f} MiB   reserved {reserved / MiB:8.2f} MiB")


show("start")
x = torch.empty(1, device="cuda")            # 4 bytes requested
show("one float")
big = torch.empty(100 * MiB // 4, device="cuda")  # exactly 100 MiB of float32
show("plus 100 MiB")
del big
show("after del big")
torch.cuda.empty_cache()
show("after empty_cache")
print("segments now:", torch.cuda.memory_stats()["segment.all.current"])
