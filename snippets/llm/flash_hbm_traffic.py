# A counting model of memory traffic per (batch, head), not a GPU measurement.
# Unfused: S = QK^T is written out, read by softmax, P written, read again for P @ V.
# Tiled (FlashAttention-2 loop order): each block of Br queries stays on chip while
# every K and V block streams past it; only O and one logsumexp per row are written.
BYTES = 2  # fp16 / bf16 element; logsumexp counted in fp32 (4 bytes)


def unfused(L, D):
    elems = (2 * L * D        # read Q, K
             + L * L          # write S
             + 2 * L * L      # softmax: read S, write P
             + L * L + L * D  # read P, read V
             + L * D)         # write O
    return elems * BYTES


def tiled(L, D, Br):
    passes = -(-L // Br)               # query blocks; each one reads all of K and V
    elems = (L * D                     # read Q once
             + passes * 2 * L * D      # read K and V once per query block
             + L * D)                  # write O once
    return elems * BYTES + L * 4       # + logsumexp (fp32) kept for backward


D = 64
print(f"{'L':>6} {'Br':>4} {'unfused MB':>11} {'tiled MB':>9} {'ratio':>6}")
for L in (1024, 4096, 16384):
    for Br in (64, 128):
        u, t = unfused(L, D), tiled(L, D, Br)
        print(f"{L:>6} {Br:>4} {u / 1e6:>11.1f} {t / 1e6:>9.1f} {u / t:>6.1f}")
L = 4096
print("score matrix alone at L=4096 (fp16):", L * L * BYTES / 1e6, "MB per head")
