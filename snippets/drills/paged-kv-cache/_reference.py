import torch


def gather_kv(k_pages, v_pages, block_table, seq_lens):
    block_size = k_pages.shape[1]
    max_len = int(seq_lens.max())
    t = torch.arange(max_len, device=k_pages.device)  # logical positions 0 .. max_len - 1
    mask = t[None, :] < seq_lens[:, None]  # (B, max_len): a real token
    blocks = block_table[:, t // block_size]  # (B, max_len): the physical block of each position
    blocks = torch.where(mask, blocks, 0)  # padding may sit past the table's blocks (-1): never read
    slots = (t % block_size).expand_as(blocks)  # the slot inside that block
    keep = mask[:, :, None, None]
    k = torch.where(keep, k_pages[blocks, slots], 0)  # (B, max_len, H, D), zeros on padding
    v = torch.where(keep, v_pages[blocks, slots], 0)
    return k.transpose(1, 2), v.transpose(1, 2), mask  # (B, H, max_len, D): heads before positions


def append_token(k_pages, v_pages, block_table, seq_lens, b, k_new, v_new, free_blocks):
    block_size = k_pages.shape[1]
    n = int(seq_lens[b])
    if n % block_size == 0:  # empty, or the last block is exactly full: a new block
        block_table[b, n // block_size] = free_blocks.pop(0)  # the first free block
    block, slot = int(block_table[b, n // block_size]), n % block_size
    k_pages[block, slot] = k_new
    v_pages[block, slot] = v_new
    seq_lens[b] += 1
    return block, slot
