import torch
from torch.nn.attention.experimental._paged_attention import PagedAttention

torch.manual_seed(0)
H, D = 1, 2
pa = PagedAttention(n_pages=6, page_size=4, max_batch_size=3, device="cpu")
k_cache = torch.zeros(1, H, 6 * 4, D)      # the physical pool: n_pages * page_size slots
v_cache = torch.zeros(1, H, 6 * 4, D)
b0, b1, b2 = torch.tensor([0]), torch.tensor([1]), torch.tensor([2])

pa.reserve(b0, torch.tensor(6))            # request 0 needs 6 tokens -> 2 pages
pa.reserve(b1, torch.tensor(3))            # request 1 needs 3 tokens -> 1 page
print("page_table\n", pa.page_table)
print("capacity", pa.capacity.tolist(), " empty_pages", pa.empty_pages)

# Write request 0's six tokens (positions 0..5) through the page table.
k = torch.arange(1.0, 13.0).view(1, H, 6, D)   # token t has first feature 2t + 1
pa.assign(b0, torch.arange(6)[None], k, k, k_cache, v_cache)
print("pool slot -> first feature:",
      {s: int(v) for s, v in enumerate(k_cache[0, 0, :, 0].tolist()) if v})

pa.reserve(b0, torch.tensor(9))            # grows by one page, not by a fresh reservation
print("after growing request 0 to 9:", pa.page_table[0].tolist())
pa.erase(b1)                               # request 1 finishes: its page is free again
print("after erase(1): capacity", pa.capacity.tolist(), " empty_pages", pa.empty_pages)
print("physical_to_logical row 1 after erase:", pa.physical_to_logical[1].tolist())
pa.reserve(b2, torch.tensor(8))            # a new request takes the freed page first
print("request 2 pages:", pa.page_table[2].tolist())
try:
    pa.reserve(b2, torch.tensor(20))
except AssertionError as e:
    print("AssertionError:", e)
try:
    pa.erase(torch.tensor(0))              # a 0-d index, not the shape (1) the docstring asks
except IndexError as e:
    print("erase(torch.tensor(0)) IndexError:", e)
