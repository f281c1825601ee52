# mistake: padded positions are not zeroed: a position past a sequence's end reads whatever its
# slot (or block -1, the pool's last block) holds; the mask is right
# fails: padding
import torch


def gather_kv(k_pages, v_pages, block_table, seq_lens):
    block_size = k_pages.shape[1]
    max_len = int(seq_lens.max())
    t = torch.arange(max_len)
    mask = t[None, :] < seq_lens[:, None]
    blocks = block_table[:, t // block_size]  # -1 past the sequence's blocks: the last block
    slots = (t % block_size).expand_as(blocks)
    k, v = k_pages[blocks, slots], v_pages[blocks, slots]  # no zeros where mask is False
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

