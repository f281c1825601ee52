# mistake: the loss compares the logits at t with token t itself, not t + 1 (the
# starter's unshifted labels left unfixed)
# fails: next_token_loss
import math

import torch
import torch.nn.functional as F
from torch import nn


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x):  # (B, T, C) -> (B, T, C)
        b, t, c = x.shape
        head_dim = c // self.n_heads
        q, k, v = self.qkv(x).split(c, dim=-1)
        q, k, v = (z.view(b, t, self.n_heads, head_dim).transpose(1, 2) for z in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(head_dim)  # (B, H, T, T): query, key
        # Key j is hidden from query i when j > i: the triangle above the diagonal.
        hidden = torch.ones(t, t, dtype=torch.bool, device=x.device).triu(diagonal=1)
        scores = scores.masked_fill(hidden, float("-inf"))
        weights = torch.softmax(scores, dim=-1)  # over the keys: each query's row sums to 1
        y = (weights @ v).transpose(1, 2).reshape(b, t, c)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = CausalSelfAttention(d_model, n_heads)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(),
                                 nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))  # the residual adds to x itself, not to ln1(x)
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab=64, d_model=32, n_heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.max_len = max_len
        self.tok_emb = nn.Embedding(vocab, d_model)
        self.pos_emb = nn.Embedding(max_len, d_model)
        self.blocks = nn.ModuleList(Block(d_model, n_heads) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, tokens):  # (B, T) int64 -> (B, T, vocab)
        positions = torch.arange(tokens.shape[1], device=tokens.device)
        x = self.tok_emb(tokens) + self.pos_emb(positions)
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


def next_token_loss(model, tokens):
    logits = model(tokens)
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens.reshape(-1))
