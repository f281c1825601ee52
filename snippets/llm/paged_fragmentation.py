import math

# KV-cache slots (one slot = one token's K and V in every layer) for six live requests.
lengths = [37, 250, 812, 5, 1900, 120]
max_len = 2048          # a fixed reservation must cover the longest allowed sequence
page = 16               # tokens per page

used = sum(lengths)
fixed = len(lengths) * max_len
pages = sum(math.ceil(n / page) for n in lengths)
paged = pages * page
print("tokens stored        ", used)
print("fixed reservation    ", fixed, f"slots, {100 * (fixed - used) / fixed:.1f}% unused")
print("paged, page=16       ", paged, f"slots, {100 * (paged - used) / paged:.1f}% unused",
      f"({pages} pages)")
print("paged waste per request < page:", [math.ceil(n / page) * page - n for n in lengths])

# What a slot costs for a model with 32 layers, 8 KV heads of dim 128, bf16 (2 bytes): K and V.
slot_bytes = 2 * 32 * 8 * 128 * 2
print("bytes per slot       ", slot_bytes)
print(f"fixed: {fixed * slot_bytes / 2**20:.0f} MiB   paged: {paged * slot_bytes / 2**20:.0f} MiB")
