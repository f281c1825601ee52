# wrong: the cached k and v are detached, so logits after a cached step have the right values but
# no gradient flows through the cached keys and values to the parameters
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


def _attend(attn, x, past):
    """One SelfAttention over the new rows x (B, T_new, C), with past = (k, v) or None.
    torch.cat grows the cache; a boolean mask (True = may attend) is aligned bottom-right."""
    b, t, c = x.shape
    h = attn.n_heads
    q, k, v = attn.qkv(x).split(c, dim=-1)
    q, k, v = (z.view(b, t, h, c // h).transpose(1, 2) for z in (q, k, v))
    if past is not None:
        k = torch.cat([past[0], k], dim=2)
        v = torch.cat([past[1], v], dim=2)
    t_all = k.shape[2]
    t_past = t_all - t
    q_pos = torch.arange(t_past, t_all, device=x.device).unsqueeze(1)  # (T_new, 1)
    k_pos = torch.arange(t_all, device=x.device).unsqueeze(0)  # (1, T_all)
    allowed = k_pos <= q_pos  # (T_new, T_all)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
    # keep the cache out of the autograd graph, it is only memory
    return attn.proj(y.transpose(1, 2).reshape(b, t, c)), (k.detach(), v.detach())


def forward_step(model, tokens, cache=None):
    """Run `model` on the new tokens only, reusing the cached keys and values of every block."""
    t_new = tokens.shape[1]
    t_past = 0 if cache is None else cache[0][0].shape[2]
    positions = torch.arange(t_past, t_past + t_new, device=tokens.device)
    x = model.tok_emb(tokens) + model.pos_emb(positions)
    new_cache = []
    for i, block in enumerate(model.blocks):
        a, kv = _attend(block.attn, block.ln1(x), None if cache is None else cache[i])
        x = x + a
        x = x + block.mlp(block.ln2(x))
        new_cache.append(kv)
    return model.head(model.ln_f(x)), new_cache


def generate(model, prompt, steps):
    """Greedy decoding: a prefill over the prompt, then one single-token step per new token."""
    with torch.no_grad():
        logits, cache = forward_step(model, prompt)
        seq = prompt
        for i in range(steps):
            nxt = logits[:, -1].argmax(dim=-1, keepdim=True)  # (B, 1)
            seq = torch.cat([seq, nxt], dim=1)
            if i + 1 < steps:
                logits, cache = forward_step(model, nxt, cache)
    return seq
