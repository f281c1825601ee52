# mistake: a new block is taken only when n > blocks held x block_size, never when the last
# block is exactly full (or the sequence is empty): the token goes to block_table[b, n // block_size],
# which is -1, the pool's last block
# fails: append_boundary
import torch


def gather_kv(k_pages, v_pages, block_table, seq_lens):
    block_size = k_pages.shape[1]
    max_len = int(seq_lens.max())
    t = torch.arange(max_len)
    mask = t[None, :] < seq_lens[:, None]
    blocks = torch.where(mask, block_table[:, t // block_size], 0)
    slots = (t % block_size).expand_as(blocks)
    keep = mask[:, :, None, None]
    k = torch.where(keep, k_pages[blocks, slots], 0)
    v = torch.where(keep, v_pages[blocks, slots], 0)
    return k.transpose(1, 2), v.transpose(1, 2), mask



def append_token(k_pages, v_pages, block_table, seq_lens, b, k_new, v_new, free_blocks):
    block_size = k_pages.shape[1]
    n = int(seq_lens[b])
    used = (n + block_size - 1) // block_size  # blocks the sequence holds
    if n > used * block_size:  # never true: should be n == used * block_size (>=)
        block_table[b, used] = free_blocks.pop(0)
    block, slot = int(block_table[b, n // block_size]), n % block_size
    k_pages[block, slot] = k_new
    v_pages[block, slot] = v_new
    seq_lens[b] += 1
    return block, slot
