import torch


def gather_kv(k_pages, v_pages, block_table, seq_lens):
    block_size = k_pages.shape[1]
    B = block_table.shape[0]
    max_len = int(seq_lens.max()) if seq_lens.numel() > 0 else 0
    pos = torch.arange(max_len, device=block_table.device)
    mask = pos.unsqueeze(0) < seq_lens.unsqueeze(1)  # (B, max_len)
    blocks = block_table[:, pos // block_size]  # (B, max_len), -1 on some padding
    blocks = torch.where(mask, blocks, torch.zeros_like(blocks))  # any valid id; zeroed below
    slots = (pos % block_size).expand(B, max_len)
    fill = mask[:, :, None, None]

    def dense(pages):
        tokens = pages[blocks, slots]  # (B, max_len, H, D), a new tensor (advanced indexing)
        tokens = torch.where(fill, tokens, torch.zeros((), dtype=pages.dtype, device=pages.device))
        return tokens.permute(0, 2, 1, 3)  # (B, H, max_len, D)

    return dense(k_pages), dense(v_pages), mask


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
