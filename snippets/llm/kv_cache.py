import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
V, D, H, L = 50, 32, 4, 2  # vocab, model width, heads, layers
Dh = D // H


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D, 3 * D)
        self.proj = nn.Linear(D, D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))
        self.n1, self.n2 = nn.LayerNorm(D), nn.LayerNorm(D)

    def forward(self, x, past=None):  # x: (B, T_new, D); past: (k, v) or None
        B, T, _ = x.shape
        q, k, v = self.qkv(self.n1(x)).split(D, dim=-1)
        q, k, v = (t.view(B, T, H, Dh).transpose(1, 2) for t in (q, k, v))
        if past is not None:  # keys and values of earlier tokens; their queries are never needed
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        T_past = k.shape[2] - T
        mask = torch.ones(T, T_past + T, dtype=torch.bool).tril(diagonal=T_past)
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = x + self.proj(a.transpose(1, 2).reshape(B, T, D))
        return x + self.mlp(self.n2(x)), (k, v)


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok, self.pos = nn.Embedding(V, D), nn.Embedding(64, D)
        self.blocks = nn.ModuleList(Block() for _ in range(L))
        self.head = nn.Linear(D, V)

    def forward(self, tokens, cache=None):
        T_past = 0 if cache is None else cache[0][0].shape[2]
        pos = torch.arange(T_past, T_past + tokens.shape[1])
        x = self.tok(tokens) + self.pos(pos)
        new_cache = []
        for i, blk in enumerate(self.blocks):
            x, kv = blk(x, None if cache is None else cache[i])
            new_cache.append(kv)
        return self.head(x), new_cache


model = TinyGPT().eval()
prompt = torch.tensor([[3, 14, 15, 9, 26]])
steps = 10

with torch.no_grad():
    # Without a cache: run the whole sequence again for every new token.
    seq = prompt
    for _ in range(steps):
        logits, _ = model(seq)
        seq = torch.cat([seq, logits[:, -1:].argmax(-1)], dim=1)
    uncached = seq

    # With a cache: prefill the prompt once, then feed one token per step.
    logits, cache = model(prompt)
    seq, diffs = prompt, []
    for _ in range(steps):
        nxt = logits[:, -1:].argmax(-1)
        seq = torch.cat([seq, nxt], dim=1)
        logits, cache = model(nxt, cache)
        full, _ = model(seq)  # reference: the same position without the cache
        diffs.append((logits[:, -1] - full[:, -1]).abs().max().item())
    cached = seq

print("uncached tokens:", uncached[0].tolist())
print("cached tokens:  ", cached[0].tolist())
print("identical:", torch.equal(uncached, cached))
print("largest logit difference below 1e-5:", max(diffs) < 1e-5)

k, v = cache[0]
print("cache: one (k, v) pair per layer:", len(cache), "layers")
print("layer 0 k shape (B, kv_heads, T, head_dim):", tuple(k.shape), "v shape:", tuple(v.shape))
T = k.shape[2]
formula = 2 * L * H * Dh * k.element_size()
measured = sum(k.nbytes + v.nbytes for k, v in cache)
print(f"bytes per token, 2 x {L} layers x {H} kv_heads x {Dh} head_dim x {k.element_size()} bytes:", formula)
print(f"nbytes of the cache after {T} tokens: {measured} = {T} x {measured // T}")
big = 2 * 32 * 8 * 128 * 2  # 32 layers, 8 KV heads, head_dim 128, bf16
print(f"32 layers, 8 kv_heads, head_dim 128, bf16: {big} bytes per token,",
      f"{big * 8192 / 2**30:.0f} GiB for 8192 tokens of one sequence")
