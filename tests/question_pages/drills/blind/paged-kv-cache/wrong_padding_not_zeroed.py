# wrong: gathers whole blocks through the table and returns them with the mask, but never zeroes the
# padding: positions past a sequence's end hold whatever the pool has there (stale slots of its last
# block, or block -1, the pool's last block), not zeros
import torch


def gather_kv(k_pages, v_pages, block_table, seq_lens):
    block_size = k_pages.shape[1]
    max_len = int(seq_lens.max()) if seq_lens.numel() > 0 else 0
    pos = torch.arange(max_len)
    mask = pos.unsqueeze(0) < seq_lens.unsqueeze(1)
    blocks = block_table[:, pos // block_size]
    slots = pos % block_size
    k = k_pages[blocks, slots].permute(0, 2, 1, 3)
    v = v_pages[blocks, slots].permute(0, 2, 1, 3)
    return k, v, mask


def append_token(k_pages, v_pages, block_table, seq_lens, b, k_new, v_new, free_blocks):
    block_size = k_pages.shape[1]
    n = int(seq_lens[b])
    logical, slot = divmod(n, block_size)
    if slot == 0:
        block = free_blocks.pop(0)
        block_table[b, logical] = block
    else:
        block = int(block_table[b, logical])
    k_pages[block, slot] = k_new
    v_pages[block, slot] = v_new
    seq_lens[b] += 1
    return int(block), int(slot)
