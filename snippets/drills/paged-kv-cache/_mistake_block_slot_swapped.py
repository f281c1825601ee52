# mistake: the block and the slot are swapped: block_table[b, t % block_size] picks the block and
# t // block_size the slot
# fails: layout
import torch


def gather_kv(k_pages, v_pages, block_table, seq_lens):
    block_size = k_pages.shape[1]
    max_len = int(seq_lens.max())
    t = torch.arange(max_len)
    mask = t[None, :] < seq_lens[:, None]
    blocks = torch.where(mask, block_table[:, t % block_size], 0)  # should be t // block_size
    slots = (t // block_size).clamp(max=block_size - 1).expand_as(blocks)  # should be t % block_size
    keep = mask[:, :, None, None]
    k = torch.where(keep, k_pages[blocks, slots], 0)
    v = torch.where(keep, v_pages[blocks, slots], 0)
    return k.transpose(1, 2), v.transpose(1, 2), mask


def append_token(k_pages, v_pages, block_table, seq_lens, b, k_new, v_new, free_blocks):
    block_size = k_pages.shape[1]
    n = int(seq_lens[b])
    if n % block_size == 0:
        block_table[b, n // block_size] = free_blocks.pop(0)
    block, slot = int(block_table[b, n // block_size]), n % block_size
    k_pages[block, slot] = k_new
    v_pages[block, slot] = v_new
    seq_lens[b] += 1
    return block, slot

