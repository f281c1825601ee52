"""The bubble of a fill-and-drain pipeline: p stages, m micro-batches, v chunks per rank."""


def bubble(p, m, v=1):
    # Idle slots over all slots on one rank, every slot one chunk's forward+backward of equal cost:
    # the fill and drain take (p - 1) / v full-stage slots, the work m.
    return (p - 1) / (v * m + p - 1)


print("  p    m   GPipe/1F1B  interleaved v=2  held on stage 0: GPipe  1F1B")
for p in (2, 4, 8):
    for m in (p, 4 * p, 8 * p):
        print(f"{p:3d} {m:4d} {bubble(p, m):11.1%} {bubble(p, m, v=2):16.1%}"
              f" {m:23d} {min(m, p):5d}")
for p in (2, 4, 8):
    m = next(m for m in range(1, 1000) if bubble(p, m) <= 0.10)
    print(f"p={p}: bubble <= 10% from m = {m}")
