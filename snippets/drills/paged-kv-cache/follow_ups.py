import math

import torch
from _reference import append_token, gather_kv
from torch.nn.attention.experimental import _paged_attention

torch.manual_seed(0)

# Memory: a contiguous cache reserves max_model_len slots per sequence; a paged cache holds
# ceil(L / block_size) blocks, so a sequence wastes at most block_size - 1 slots (in its last block).
lengths = [3, 17, 40, 64, 100, 250]
max_model_len, block_size = 256, 16
used = sum(lengths)
contiguous = len(lengths) * max_model_len
padded = len(lengths) * max(lengths)
paged_waste = [math.ceil(n / block_size) * block_size - n for n in lengths]
print("lengths:", lengths, "| tokens:", used)
print(f"contiguous, {max_model_len} slots reserved per sequence: {contiguous} slots,"
      f" {contiguous - used} wasted ({(contiguous - used) / contiguous:.0%})")
print(f"padded to the batch's longest ({max(lengths)}): {padded} slots, {padded - used} wasted")
print(f"paged, block_size {block_size}: {used + sum(paged_waste)} slots, {sum(paged_waste)} wasted,"
      f" per sequence {paged_waste} (at most {block_size - 1})")

# The reference on a pool: two sequences share their first block, then decode one token each.
heads, dim = 2, 4
k_pages, v_pages = torch.zeros(8, 4, heads, dim), torch.zeros(8, 4, heads, dim)
block_table = torch.full((2, 4), -1, dtype=torch.int64)
seq_lens = torch.zeros(2, dtype=torch.int64)
free_blocks = [5, 2, 7, 0, 3, 6, 1, 4]
for _ in range(6):
    append_token(k_pages, v_pages, block_table, seq_lens, 0, torch.randn(heads, dim),
                 torch.randn(heads, dim), free_blocks)
block_table[1, 0], seq_lens[1] = block_table[0, 0], 4  # sequence 1 reuses sequence 0's first block
where = append_token(k_pages, v_pages, block_table, seq_lens, 1, torch.randn(heads, dim),
                     torch.randn(heads, dim), free_blocks)
print("block_table:", block_table.tolist(), "| seq_lens:", seq_lens.tolist(),
      "| sequence 1's 5th token went to (block, slot):", where, "| free:", free_blocks)
k, v, mask = gather_kv(k_pages, v_pages, block_table, seq_lens)
print("gathered k:", tuple(k.shape), "| shared prefix equal:", torch.equal(k[0, :, :4], k[1, :, :4]),
      "| mask:", mask.int().tolist())
# A table entry of -1 used as an index is not an error: it reads the pool's last block.
print("k_pages[block_table[0]] with -1 entries reads block 7 there:",
      torch.equal(k_pages[block_table[0]][2], k_pages[7]))

# torch 2.13's experimental PagedAttention: the page bookkeeping runs on CPU.
print("torch.nn.attention.experimental._paged_attention.__all__:", _paged_attention.__all__)
paged = _paged_attention.PagedAttention(n_pages=6, page_size=4, max_batch_size=2, device="cpu")
print("empty_pages at the start:", paged.empty_pages)
paged.reserve(torch.tensor([0]), torch.tensor([6]))  # sequence 0 needs 6 tokens: 2 pages
paged.reserve(torch.tensor([1]), torch.tensor([3]))  # sequence 1 needs 3 tokens: 1 page
print("page_table after reserve(0, 6) and reserve(1, 3):", paged.page_table.tolist())
print("capacity:", paged.capacity.tolist(), "| empty_pages:", paged.empty_pages)
k_cache = torch.zeros(1, heads, 6 * 4, dim)  # one flat (1, H, n_pages * page_size, D) cache
k_val = torch.randn(1, heads, 6, dim)
paged.assign(torch.tensor([0]), torch.arange(6)[None], k_val, k_val, k_cache, k_cache.clone())
rows = k_cache[0, 0].abs().sum(-1).nonzero().flatten().tolist()
print("assign(sequence 0, positions 0..5) wrote flat rows", rows)
paged.erase(torch.tensor([0]))
print("after erase(0): page_table", paged.page_table.tolist(), "| empty_pages:", paged.empty_pages)
