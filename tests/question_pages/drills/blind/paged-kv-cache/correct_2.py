import torch


def gather_kv(k_pages, v_pages, block_table, seq_lens):
    _, block_size, H, D = k_pages.shape
    B = block_table.shape[0]
    lens = [int(n) for n in seq_lens.tolist()]
    max_len = max(lens, default=0)
    k = torch.zeros(B, H, max_len, D, dtype=k_pages.dtype, device=k_pages.device)
    v = torch.zeros(B, H, max_len, D, dtype=v_pages.dtype, device=v_pages.device)
    mask = torch.zeros(B, max_len, dtype=torch.bool, device=k_pages.device)
    for b in range(B):
        n = lens[b]
        mask[b, :n] = True
        for j in range(-(-n // block_size)):  # the ceil(n / block_size) blocks of the sequence
            page = int(block_table[b, j])
            start = j * block_size
            count = min(block_size, n - start)
            # (count, H, D) slots of the page -> (H, count, D) positions of the sequence
            k[b, :, start:start + count] = k_pages[page, :count].transpose(0, 1)
            v[b, :, start:start + count] = v_pages[page, :count].transpose(0, 1)
    return k, v, mask


def append_token(k_pages, v_pages, block_table, seq_lens, b, k_new, v_new, free_blocks):
    block_size = k_pages.shape[1]
    n = seq_lens[b].item()
    slot = n % block_size
    if n % block_size == 0:
        block = free_blocks[0]
        del free_blocks[0]
        block_table[b, n // block_size] = block
    else:
        block = block_table[b, n // block_size].item()
    k_pages[block, slot].copy_(k_new)
    v_pages[block, slot].copy_(v_new)
    seq_lens[b] = n + 1
    return block, slot
