"""The judge of paged-kv-cache. The trusted values are dense per-sequence caches: for each sequence,
its own (H, L, D) keys and values, drawn at random in float64. The judge writes those tokens into a
pool of blocks itself (blocks shuffled in the pool, unused blocks and slots filled with large
random values, the table's unused entries -1) and expects gather_kv to give back the dense tokens,
padded with zeros, exactly (a gather is a copy). Attention is checked against
F.scaled_dot_product_attention over each sequence's own dense cache. append_token is checked after
every call against the bookkeeping the contract states (the first free block, the table, the
lengths, the one slot written)."""

import math

import torch
import torch.nn.functional as F
from _drill import Tests, Wrong, expect_tensor, need

TESTS = Tests("paged-kv-cache")
SEEDS = (0, 1, 2)
H, D = 2, 3
EXACT = dict(atol=0.0, rtol=0.0)


def make_cache(lengths, block_size, seed, dtype=torch.float64, shuffle=True, shared_blocks=0,
               spare_blocks=3, room=1):
    """A pool holding the sequences of `lengths`, and each sequence's dense (H, L, D) k and v.
    With shared_blocks = s, sequence 1's first s blocks are sequence 0's (the same physical ids
    and tokens). The table has `room` more columns than the longest sequence needs."""
    g = torch.Generator().manual_seed(seed)
    dense_k = [torch.randn(H, n, D, generator=g, dtype=torch.float64) for n in lengths]
    dense_v = [torch.randn(H, n, D, generator=g, dtype=torch.float64) for n in lengths]
    prefix = shared_blocks * block_size
    if shared_blocks:
        for dense in (dense_k, dense_v):
            dense[1][:, :prefix] = dense[0][:, :prefix]
    counts = [math.ceil(n / block_size) for n in lengths]
    total = sum(counts) - shared_blocks + spare_blocks
    order = torch.randperm(total, generator=g) if shuffle else torch.arange(total)
    k_pages = torch.randn(total, block_size, H, D, generator=g, dtype=torch.float64) * 100
    v_pages = torch.randn(total, block_size, H, D, generator=g, dtype=torch.float64) * 100
    table = torch.full((len(lengths), max(counts) + room), -1, dtype=torch.int64)
    used = 0
    for b, n in enumerate(lengths):
        for j in range(counts[b]):
            if b == 1 and j < shared_blocks:
                table[1, j] = table[0, j]
                continue
            block = int(order[used])
            used += 1
            table[b, j] = block
            end = min(n, (j + 1) * block_size)
            k_pages[block, :end - j * block_size] = dense_k[b][:, j * block_size:end].transpose(0, 1)
            v_pages[block, :end - j * block_size] = dense_v[b][:, j * block_size:end].transpose(0, 1)
    free = [int(p) for p in order[used:]]
    lens = torch.tensor(lengths, dtype=torch.int64)
    return dict(k_pages=k_pages.to(dtype), v_pages=v_pages.to(dtype), block_table=table,
                seq_lens=lens, dense_k=dense_k, dense_v=dense_v, free=free, block_size=block_size)


def padded(dense, dtype):
    """The expected (B, H, max_len, D) tensor: each sequence's tokens, then zeros."""
    max_len = max(x.shape[1] for x in dense)
    out = torch.zeros(len(dense), H, max_len, D, dtype=torch.float64)
    for b, x in enumerate(dense):
        out[b, :, :x.shape[1]] = x
    return out.to(dtype)


def describe(value):
    if isinstance(value, torch.Tensor):
        return f"a {value.dtype} tensor of shape {tuple(value.shape)}"
    return type(value).__name__


def gather(solution, case, what):
    """gather_kv on the case, its answer checked against the dense tokens; the inputs unchanged."""
    inputs = [case[name] for name in ("k_pages", "v_pages", "block_table", "seq_lens")]
    before = [x.clone() for x in inputs]
    out = need(solution, "gather_kv")(*inputs)
    if not isinstance(out, tuple) or len(out) != 3:
        raise Wrong(f"{what}: gather_kv should return (k, v, mask), got {describe(out)}")
    k, v, mask = out
    lengths = case["seq_lens"].tolist()
    dtype = case["k_pages"].dtype
    for name, got, dense in (("k", k, case["dense_k"]), ("v", v, case["dense_v"])):
        expected = padded(dense, dtype)
        if isinstance(got, torch.Tensor) and got.shape != expected.shape:
            raise Wrong(f"{what}: {name} should be (B, H, max_len, D) = {tuple(expected.shape)},"
                        f" got {tuple(got.shape)}")
        expect_tensor(got, expected, f"{what}: {name} (lengths {lengths})", **EXACT)
    max_len = max(lengths)
    expected_mask = torch.arange(max_len)[None, :] < torch.tensor(lengths)[:, None]
    if not isinstance(mask, torch.Tensor) or mask.dtype != torch.bool or mask.shape != expected_mask.shape:
        raise Wrong(f"{what}: mask should be a bool tensor of shape (B, max_len) ="
                    f" {tuple(expected_mask.shape)}, got {describe(mask)}")
    if not torch.equal(mask, expected_mask):
        b, t = (int(i) for i in (mask != expected_mask).nonzero()[0])
        raise Wrong(f"{what}: mask[{b}, {t}] is {bool(mask[b, t])}, expected {bool(expected_mask[b, t])}"
                    f" (sequence {b} has {lengths[b]} tokens)")
    for name, x, y in zip(("k_pages", "v_pages", "block_table", "seq_lens"), inputs, before, strict=True):
        if not torch.equal(x, y):
            raise Wrong(f"{what}: gather_kv changed its input {name}; it should only read")
    return k, v, mask


@TESTS.test("k and v are (B, H, max_len, D) with k[b, :, t] the token at position t: blocks in pool"
            " order, block size 4, two sequences of 8 tokens",
            hint="k_pages[block, slot] is (H, D), so gathering the positions gives (B, max_len, H, D):"
                 " transpose dims 1 and 2 to (B, H, max_len, D); a reshape keeps the memory order"
                 " and mixes heads with positions")
def test_layout(solution):
    for seed in SEEDS:
        gather(solution, make_cache([8, 8], 4, seed, shuffle=False, room=3), f"seed {seed}")


@TESTS.test("blocks shuffled in the pool (not contiguous, not in order), block sizes 1, 4 and 16,"
            " 3 seeds, three sequences of 37 tokens",
            hint="position t of sequence b is in block block_table[b, t // block_size], slot"
                 " t % block_size: look every block up in the table, do not assume a sequence's"
                 " blocks follow each other in the pool")
def test_shuffled_blocks(solution):
    for seed in SEEDS:
        for block_size in (1, 4, 16):
            gather(solution, make_cache([37, 37, 37], block_size, seed), f"seed {seed}, block size {block_size}")


@TESTS.test("sequences of different lengths: positions past a sequence's length are zeros and"
            " False in the mask, block sizes 1, 4 and 16 (the pool's unused slots hold large values)",
            hint="mask = arange(max_len) < seq_lens[:, None]; zero k and v where it is False (the"
                 " slots past a sequence's end hold stale values, and the table's entry there is -1)")
def test_padding(solution):
    for seed in SEEDS:
        for block_size in (1, 4, 16):
            gather(solution, make_cache([5, 13, 1, 9], block_size, seed),
                   f"seed {seed}, block size {block_size}")


@TESTS.test("edge lengths: 1 token, lengths exactly a multiple of the block size, an empty"
            " sequence in the batch, and a batch where every sequence is empty (max_len 0)",
            hint="max_len = int(seq_lens.max()); a sequence of 0 tokens is all padding; with"
                 " max_len 0, k and v are (B, H, 0, D) and the mask (B, 0)")
def test_edge_lengths(solution):
    for seed in SEEDS:
        gather(solution, make_cache([1], 4, seed), f"seed {seed}, one token")
        gather(solution, make_cache([8, 16, 4], 4, seed), f"seed {seed}, block size 4")
        gather(solution, make_cache([16, 32], 16, seed), f"seed {seed}, block size 16")
        gather(solution, make_cache([0, 6, 1], 4, seed), f"seed {seed}, an empty sequence")
        gather(solution, make_cache([0, 0], 4, seed), f"seed {seed}, every sequence empty")


@TESTS.test("a shared prefix: two sequences list the same physical blocks first, then their own",
            hint="read through the table for each sequence separately: the same block id in two"
                 " rows is simply read twice")
def test_shared_prefix(solution):
    for seed in SEEDS:
        for block_size in (1, 4):
            case = make_cache([3 * block_size + 2, 2 * block_size + 1, 5], block_size, seed,
                              shared_blocks=2)
            gather(solution, case, f"seed {seed}, block size {block_size}, 2 shared blocks")


@TESTS.test("k_pages' dtype is kept: float16, bfloat16 and float32 pools give the same tokens",
            hint="build the zeros (or the where) in k_pages' dtype; do not compute in float64")
def test_dtypes(solution):
    for dtype in (torch.float16, torch.bfloat16, torch.float32):
        gather(solution, make_cache([6, 11], 4, 0, dtype=dtype), f"{dtype}")


@TESTS.test("attention through the gathered cache with its mask equals F.scaled_dot_product_attention"
            " over each sequence's own dense cache (float64, 3 queries per sequence)",
            hint="the mask is True on real tokens: attn_mask=mask[:, None, None, :] lets each query"
                 " see only its sequence's tokens")
def test_attention(solution):
    for seed in SEEDS:
        case = make_cache([7, 1, 12], 4, seed)
        k, v, mask = gather(solution, case, f"seed {seed}")
        q = torch.randn(3, H, 3, D, generator=torch.Generator().manual_seed(50 + seed), dtype=torch.float64)
        got = F.scaled_dot_product_attention(q, k, v, attn_mask=mask[:, None, None, :])
        for b, (dk, dv) in enumerate(zip(case["dense_k"], case["dense_v"], strict=True)):
            expected = F.scaled_dot_product_attention(q[b:b + 1], dk[None], dv[None])
            expect_tensor(got[b:b + 1], expected, f"seed {seed}: attention of sequence {b}",
                          atol=1e-10, rtol=1e-10)


def append(solution, case, b, seed, what):
    """One append_token on sequence b, checked against the contract's bookkeeping; the case's
    expected state (its dense tokens and free list) is updated as the contract says."""
    g = torch.Generator().manual_seed(seed)
    dtype = case["k_pages"].dtype
    k_new = torch.randn(H, D, generator=g, dtype=torch.float64).to(dtype)
    v_new = torch.randn(H, D, generator=g, dtype=torch.float64).to(dtype)
    bs = case["block_size"]
    exp_k, exp_v = case["k_pages"].clone(), case["v_pages"].clone()
    exp_table, exp_lens, exp_free = case["block_table"].clone(), case["seq_lens"].clone(), list(case["free"])
    n = int(exp_lens[b])
    if n % bs == 0:
        exp_table[b, n // bs] = exp_free.pop(0)
    block, slot = int(exp_table[b, n // bs]), n % bs
    exp_k[block, slot], exp_v[block, slot] = k_new, v_new
    exp_lens[b] += 1
    free = case["free"]
    out = need(solution, "append_token")(case["k_pages"], case["v_pages"], case["block_table"],
                                         case["seq_lens"], b, k_new, v_new, free)
    where = f"{what}: appending token {n} of sequence {b} (block size {bs})"
    if free != exp_free:
        raise Wrong(f"{where}: free_blocks is {free} after the call, expected {exp_free}"
                    + (" (a new block is needed: take the first free one)" if n % bs == 0
                       else " (the last block has room: no new block)"))
    if not torch.equal(case["block_table"], exp_table):
        raise Wrong(f"{where}: block_table row {b} is {case['block_table'][b].tolist()},"
                    f" expected {exp_table[b].tolist()}")
    if not torch.equal(case["seq_lens"], exp_lens):
        raise Wrong(f"{where}: seq_lens is {case['seq_lens'].tolist()}, expected {exp_lens.tolist()}")
    expect_tensor(case["k_pages"], exp_k, f"{where}: k_pages (the token goes to block {block},"
                  f" slot {slot}, nothing else changes)", **EXACT)
    expect_tensor(case["v_pages"], exp_v, f"{where}: v_pages", **EXACT)
    if not isinstance(out, tuple) or len(out) != 2 or (int(out[0]), int(out[1])) != (block, slot):
        raise Wrong(f"{where}: expected the return value (block, slot) = {(block, slot)},"
                    f" got {out if isinstance(out, tuple) else describe(out)}")
    for name in ("dense_k", "dense_v"):
        new = (k_new if name == "dense_k" else v_new).double()[:, None]
        case[name][b] = torch.cat([case[name][b], new], dim=1)


@TESTS.test("append_token into a last block with room: the token lands in the next slot, no block"
            " is taken, seq_lens[b] grows by 1, returns (block, slot)",
            hint="n = seq_lens[b]; the slot is n % block_size of block block_table[b, n // block_size];"
                 " update seq_lens[b] in place")
def test_append_in_block(solution):
    for seed in SEEDS:
        case = make_cache([5, 2, 9], 4, seed)
        for step, b in enumerate((0, 1, 2, 0, 1)):
            append(solution, case, b, 10 * seed + step, f"seed {seed}, append {step}")


@TESTS.test("append_token across block boundaries: from an empty sequence and from a full last"
            " block, the FIRST free block is taken and entered in the table, block sizes 1 and 4",
            hint="a new block is needed exactly when seq_lens[b] % block_size == 0 (0 tokens"
                 " included): free_blocks.pop(0), stored at block_table[b, n // block_size]")
def test_append_boundary(solution):
    for seed in SEEDS:
        for block_size in (1, 4):
            case = make_cache([0, 2 * block_size], block_size, seed, spare_blocks=8, room=4)
            for step in range(2 * block_size + 1):
                for b in (1, 0):  # sequence 1's last block is full, sequence 0 is empty
                    append(solution, case, b, 100 * seed + 10 * step + b,
                           f"seed {seed}, append {step}")
            gather(solution, case, f"seed {seed}, block size {block_size}, gathered after the appends")


@TESTS.test("a decode loop: appends to three sequences in turn, after a shared-prefix prefill, then"
            " gather_kv gives every sequence's tokens in order (block sizes 1, 4 and 16)",
            hint="the table's row grows block by block in logical order, whatever the physical ids;"
                 " gather must read the new blocks through it")
def test_decode_loop(solution):
    for seed in SEEDS:
        for block_size in (1, 4, 16):
            case = make_cache([block_size + 1, block_size + 3, 1], block_size, seed,
                              shared_blocks=1, spare_blocks=12, room=4)
            for step in range(3 * block_size // 2 + 2):
                for b in (0, 1, 2):
                    append(solution, case, b, 1000 * seed + 10 * step + b, f"seed {seed}, step {step}")
            gather(solution, case, f"seed {seed}, block size {block_size}, after the decode loop")
