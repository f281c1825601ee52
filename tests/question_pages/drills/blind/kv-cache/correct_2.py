import torch
import torch.nn.functional as F
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)  # q, k and v, in that order, side by side
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x):  # (B, T, C) -> (B, T, C), causal, no cache
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=-1)
        q, k, v = (z.view(b, t, self.n_heads, c // self.n_heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (B, H, T, Dh)
        return self.proj(y.transpose(1, 2).reshape(b, t, c))


class Block(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.ln1, self.attn = nn.LayerNorm(d_model), SelfAttention(d_model, n_heads)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    """The fixed decoder (the judge builds its own copy of this class, with the same weights):
    token embedding plus learned positions, 2 pre-norm blocks of causal self-attention (4 heads
    of 8 dimensions) and an MLP, a final LayerNorm and a head to the vocabulary."""

    def __init__(self, seed=0, vocab=64, d_model=32, n_heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.max_len = max_len
        with torch.random.fork_rng():  # the weights depend on `seed` only
            torch.manual_seed(seed)
            self.tok_emb, self.pos_emb = nn.Embedding(vocab, d_model), nn.Embedding(max_len, d_model)
            self.blocks = nn.ModuleList(Block(d_model, n_heads) for _ in range(n_layers))
            self.ln_f, self.head = nn.LayerNorm(d_model), nn.Linear(d_model, vocab, bias=False)

    def forward(self, tokens):  # (B, T) int64 -> logits (B, T, vocab), the whole sequence
        positions = torch.arange(tokens.shape[1], device=tokens.device)
        x = self.tok_emb(tokens) + self.pos_emb(positions)
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


def _cached_attention(attn, x, past, t_past):
    """SelfAttention over the new rows by hand: scores, an additive mask of 0 and -inf (a key
    after the query's position gets -inf), softmax in the model's dtype. The keys and values of
    this block are copied into a freshly allocated (B, H, T_past + T_new, Dh) tensor each step;
    the previous cache is only read, never written."""
    b, t, c = x.shape
    h = attn.n_heads
    dh = c // h
    q, k_new, v_new = attn.qkv(x).split(c, dim=-1)
    q = q.reshape(b, t, h, dh).permute(0, 2, 1, 3)
    k_new = k_new.reshape(b, t, h, dh).permute(0, 2, 1, 3)
    v_new = v_new.reshape(b, t, h, dh).permute(0, 2, 1, 3)
    t_all = t_past + t
    k = k_new.new_empty(b, h, t_all, dh)
    v = v_new.new_empty(b, h, t_all, dh)
    if past is not None:
        k[:, :, :t_past] = past[0]
        v[:, :, :t_past] = past[1]
    k[:, :, t_past:] = k_new
    v[:, :, t_past:] = v_new
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / dh ** 0.5
    query_pos = torch.arange(t_past, t_all, device=x.device)[:, None]
    key_pos = torch.arange(t_all, device=x.device)[None, :]
    bias = torch.zeros(t, t_all, dtype=scores.dtype, device=x.device)
    bias = bias.masked_fill(key_pos > query_pos, float("-inf"))
    weights = torch.softmax(scores + bias, dim=-1)
    y = torch.einsum("bhqk,bhkd->bhqd", weights, v)
    y = y.permute(0, 2, 1, 3).reshape(b, t, c)
    return attn.proj(y), (k, v)


def forward_step(model, tokens, cache=None):
    """The cached forward: embeddings at positions T_past.., each block with its cache entry."""
    _, t_new = tokens.shape
    t_past = cache[0][0].size(2) if cache else 0
    pos = torch.arange(t_past, t_past + t_new, dtype=torch.long, device=tokens.device)
    x = model.tok_emb(tokens) + model.pos_emb(pos).unsqueeze(0)
    new_cache = []
    for layer, block in enumerate(model.blocks):
        past = cache[layer] if cache else None
        y, kv = _cached_attention(block.attn, block.ln1(x), past, t_past)
        new_cache.append(kv)
        x = x + y
        x = x + block.mlp(block.ln2(x))
    logits = model.head(model.ln_f(x))
    return logits, new_cache


@torch.no_grad()
def generate(model, prompt, steps):
    """Greedy decoding into a preallocated (B, T0 + steps) tensor: the prefill gives the first
    new token, then each single-token step gives the next; the last token is not fed back."""
    b, t0 = prompt.shape
    out = torch.empty(b, t0 + steps, dtype=torch.long, device=prompt.device)
    out[:, :t0] = prompt
    logits, cache = forward_step(model, prompt)
    for pos in range(t0, t0 + steps):
        out[:, pos] = logits[:, -1, :].argmax(dim=-1)
        if pos + 1 < t0 + steps:
            logits, cache = forward_step(model, out[:, pos:pos + 1], cache)
    return out
