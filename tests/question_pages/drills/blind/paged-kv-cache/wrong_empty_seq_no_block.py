# wrong: asks for a new block only when a non-empty sequence's last block is full (n > 0), so the first
# token of an empty sequence is written through its table entry -1, into the pool's last block, and
# no block is taken from free_blocks
import torch


def gather_kv(k_pages, v_pages, block_table, seq_lens):
    block_size = k_pages.shape[1]
    B = block_table.shape[0]
    max_len = int(seq_lens.max()) if seq_lens.numel() > 0 else 0
    pos = torch.arange(max_len)
    mask = pos.unsqueeze(0) < seq_lens.unsqueeze(1)
    blocks = torch.where(mask, block_table[:, pos // block_size], 0)
    slots = (pos % block_size).expand(B, max_len)
    fill = mask[:, :, None, None]
    k = torch.where(fill, k_pages[blocks, slots], 0.0).permute(0, 2, 1, 3)
    v = torch.where(fill, v_pages[blocks, slots], 0.0).permute(0, 2, 1, 3)
    return k, v, mask


def append_token(k_pages, v_pages, block_table, seq_lens, b, k_new, v_new, free_blocks):
    block_size = k_pages.shape[1]
    n = int(seq_lens[b])
    logical, slot = divmod(n, block_size)
    if n > 0 and slot == 0:
        block = free_blocks.pop(0)
        block_table[b, logical] = block
    else:
        block = int(block_table[b, logical])
    k_pages[block, slot] = k_new
    v_pages[block, slot] = v_new
    seq_lens[b] += 1
    return int(block), int(slot)
