import torch


def gather_kv(k_pages, v_pages, block_table, seq_lens):
    """Read a batch of sequences out of a paged KV cache into padded dense tensors.

    k_pages, v_pages: (num_blocks, block_size, H, D), floating point (any dtype): the physical pool.
        Slot s of block p holds one token's keys (values): k_pages[p, s] is (H, D).
    block_table: (B, max_blocks) int64, B >= 1. Row b lists the physical block ids of sequence b in
        logical order: sequence b's first block_size tokens are in block block_table[b, 0], the next
        in block_table[b, 1], and so on. Only the first ceil(seq_lens[b] / block_size) entries of
        row b are blocks of the sequence; the entries after them are -1 (no block). Blocks can be
        anywhere in the pool and in any order, and two sequences may list the same physical block
        (a shared prefix). max_blocks * block_size >= max(seq_lens).
    seq_lens: (B,) int64, each >= 0: the number of tokens of each sequence (0: an empty sequence).

    With max_len = max(seq_lens) (0 when every sequence is empty), returns (k, v, mask):
        k, v: (B, H, max_len, D), of k_pages' dtype: k[b, :, t] is the token at logical position t
            of sequence b, which is k_pages[block_table[b, t // block_size], t % block_size], for
            t < seq_lens[b]; positions t >= seq_lens[b] are zeros.
        mask: (B, max_len) bool, True where position t < seq_lens[b] (a real token), False on padding.
    The inputs are left unchanged. With the mask, F.scaled_dot_product_attention(q, k, v,
    attn_mask=mask[:, None, None, :]) equals attention over each sequence's own tokens.
    """
    raise NotImplementedError("write gather_kv here")


def append_token(k_pages, v_pages, block_table, seq_lens, b, k_new, v_new, free_blocks):
    """Append one token to sequence b of the paged cache, in place.

    k_pages, v_pages, block_table, seq_lens: as in gather_kv. b: an int, the sequence.
    k_new, v_new: (H, D), of k_pages' dtype: the new token's keys and values.
    free_blocks: a Python list of int physical block ids not used by any sequence.

    Let n = seq_lens[b] (the tokens already in the sequence; n may be 0). The new token goes to
    logical position n: logical block n // block_size, slot n % block_size.
    - When n % block_size == 0 (the sequence is empty or its last block is full), the token needs a
      new block: take the FIRST id of free_blocks, remove it from the list (free_blocks.pop(0)),
      and write it to block_table[b, n // block_size]. The judge only asks for a new block when
      free_blocks is not empty and row b has room for it.
    - Otherwise the token goes into the sequence's last block, block_table[b, n // block_size]:
      free_blocks and block_table are left as they are.
    Then write k_new to k_pages[block, n % block_size] and v_new to v_pages[block, n % block_size]
    (no other slot of the pool changes) and add 1 to seq_lens[b]. Every update is in place, on the
    tensors and the list passed in. The judge never appends to a sequence whose last block is
    shared with another sequence.
    Returns (block, slot): two Python ints, the physical block and the slot the token was written to.
    """
    raise NotImplementedError("write append_token here")
