import os

import torch

device = os.environ.get("SNIPPET_DEVICE", "cpu")
print("cuda available:", torch.cuda.is_available(), "| tensors on:", device)


def counters(when):
    print(f"{when:28} allocated {torch.cuda.memory_allocated():>10,}  reserved {torch.cuda.memory_reserved():>10,}")


counters("before")
x = torch.empty(16 * 2**20, device=device)  # 64 MiB of float32
counters("after a 64 MiB tensor")
del x
counters("after del")
torch.cuda.empty_cache()
counters("after empty_cache()")
