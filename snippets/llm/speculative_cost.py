# A cost model, not a measurement: time is counted in target forward passes.
# One speculative step = K draft forwards (each costs c target forwards) + 1 target forward
# that scores all K drafts at once (assumed to cost the same as a one-token decode step).
# Plain decoding makes 1 token per target forward.


def tokens_per_call(alpha, k):
    return (1 - alpha ** (k + 1)) / (1 - alpha)


def speedup(alpha, k, c):
    return tokens_per_call(alpha, k) / (k * c + 1)


K = 4
print(f"K={K}  speedup over plain decoding (>1 pays off)")
print("accept rate | c=0.05  c=0.2  c=0.5")
for alpha in (0.2, 0.5, 0.8, 0.95):
    row = "  ".join(f"{speedup(alpha, K, c):5.2f}" for c in (0.05, 0.2, 0.5))
    print(f"   {alpha:4.2f}     | {row}")
for alpha, c in ((0.5, 0.2), (0.9, 0.05)):
    row = "  ".join(f"K={k}:{speedup(alpha, k, c):.2f}" for k in (1, 2, 4, 8, 16))
    print(f"accept {alpha}, c={c}: {row}")
