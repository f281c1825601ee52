# mistake: the table is read for the first block only: the sequence is assumed to continue in the
# blocks after it in the pool, which holds only while blocks are allocated in order
# fails: shuffled_blocks
import torch


def gather_kv(k_pages, v_pages, block_table, seq_lens):
    num_blocks, block_size, heads, dim = k_pages.shape
    max_len = int(seq_lens.max())
    flat_k, flat_v = k_pages.reshape(-1, heads, dim), v_pages.reshape(-1, heads, dim)
    k = k_pages.new_zeros(len(seq_lens), heads, max_len, dim)
    v = v_pages.new_zeros(len(seq_lens), heads, max_len, dim)
    for b, n in enumerate(seq_lens.tolist()):
        if n == 0:
            continue
        start = int(block_table[b, 0]) * block_size  # the rest assumed to follow in the pool
        k[b, :, :n] = flat_k[start:start + n].transpose(0, 1)
        v[b, :, :n] = flat_v[start:start + n].transpose(0, 1)
    mask = torch.arange(max_len)[None, :] < seq_lens[:, None]
    return k, v, mask


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

