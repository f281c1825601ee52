# mistake: the gathered (B, max_len, H, D) tensor is reshaped to (B, H, max_len, D) instead of
# transposed: the shape is right, but heads and positions are mixed
# fails: layout
import torch


def gather_kv(k_pages, v_pages, block_table, seq_lens):
    num_blocks, block_size, heads, dim = k_pages.shape
    max_len = int(seq_lens.max())
    t = torch.arange(max_len)
    mask = t[None, :] < seq_lens[:, None]
    blocks = torch.where(mask, block_table[:, t // block_size], 0)
    slots = (t % block_size).expand_as(blocks)
    keep = mask[:, :, None, None]
    k = torch.where(keep, k_pages[blocks, slots], 0)
    v = torch.where(keep, v_pages[blocks, slots], 0)
    b = len(seq_lens)
    return k.reshape(b, heads, max_len, dim), v.reshape(b, heads, max_len, dim), mask


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

