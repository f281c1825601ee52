import torch


def kv_bytes_per_token(layers, kv_heads, head_dim, bytes_per_elem):
    return 2 * layers * kv_heads * head_dim * bytes_per_elem  # K and V, every layer


# a 7B-class shape: 32 layers, 32 query heads of dim 128; with and without grouped-query attention
configs = {"MHA, 32 KV heads, bf16": (32, 32, 128, 2),
           "GQA, 8 KV heads, bf16": (32, 8, 128, 2),
           "GQA, 8 KV heads, fp8": (32, 8, 128, 1)}
for name, (layers, kv_heads, head_dim, nbytes) in configs.items():
    per_token = kv_bytes_per_token(layers, kv_heads, head_dim, nbytes)
    dtype = torch.bfloat16 if nbytes == 2 else torch.float8_e4m3fn
    # the cache for a batch of 16 sequences of 4096 tokens, built on the meta device: shapes, no memory
    cache = [torch.empty(2, 16, kv_heads, 4096, head_dim, dtype=dtype, device="meta") for _ in range(layers)]
    total = sum(t.nbytes for t in cache)
    print(f"{name:<24} {per_token / 2**10:>5.0f} KiB/token; 16 x 4096 tokens: "
          f"{total / 2**30:5.1f} GiB (formula {16 * 4096 * per_token / 2**30:.1f})")
