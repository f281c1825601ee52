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


def forward_step(model, tokens, cache=None):
    """Run `model` (a TinyGPT, float32 or float64) on new tokens, with a KV cache.

    tokens: (B, T_new) int64, T_new >= 1: the tokens that follow the ones already cached.
    cache: None (nothing cached yet: a prefill), or what the previous call returned: a list of
        one (k, v) pair per block, in block order, each k and v of shape (B, H, T_past, Dh) in the
        model's dtype: the keys and values that block's attention computed for the T_past tokens
        so far (after the qkv projection, split into heads, as SelfAttention.forward has them).
    The new tokens are at positions T_past .. T_past + T_new - 1 (T_past = 0 without a cache);
    T_past + T_new <= model.max_len. Each new token attends to every cached token and to the
    new tokens up to itself.
    Returns (logits, new_cache): logits (B, T_new, vocab) in the model's dtype, equal to
    model(all tokens so far)[:, T_past:]; new_cache the list of per-block (k, v) pairs, each
    (B, H, T_past + T_new, Dh). Only the T_new new rows go through the model's layers: the cached
    tokens are not recomputed. Differentiable with respect to the model's parameters, as forward.
    """
    raise NotImplementedError("write forward_step here")


def generate(model, prompt, steps):
    """Greedy decoding with forward_step: one prefill over the prompt, then one forward_step of
    a single token per new token.

    prompt: (B, T0) int64, T0 >= 1; steps >= 1, T0 + steps <= model.max_len.
    Returns (B, T0 + steps) int64: the prompt, then at each step the argmax of the last logits,
    token for token what recomputing model(sequence) over the whole sequence at every step gives.
    """
    raise NotImplementedError("write generate here")
