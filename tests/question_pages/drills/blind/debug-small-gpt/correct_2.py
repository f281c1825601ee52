"""A small GPT (the four bugs of the starter fixed).

GPT(vocab=64, d_model=32, n_heads=4, n_layers=2, max_len=32), an nn.Module with these parameters
(the names are fixed: the judge copies its own weights into your model with load_state_dict):
    tok_emb   nn.Embedding(vocab, d_model)         the token embedding
    pos_emb   nn.Embedding(max_len, d_model)       a learned embedding of positions 0 .. max_len-1
    blocks    nn.ModuleList of n_layers Block(d_model, n_heads), each with
        ln1       nn.LayerNorm(d_model)
        attn.qkv  nn.Linear(d_model, 3 * d_model)  q, k and v, in that order, side by side
        attn.proj nn.Linear(d_model, d_model)
        ln2       nn.LayerNorm(d_model)
        mlp       nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))
    ln_f      nn.LayerNorm(d_model)
    head      nn.Linear(d_model, vocab, bias=False), its own weight (not tied to tok_emb)
There is no dropout, and no other parameter or buffer in the state_dict.

forward(tokens): tokens (B, T) int64, B >= 1, 1 <= T <= max_len -> logits (B, T, vocab) in the
model's dtype (float32, or float64 after model.double()):
    x = tok_emb(tokens) + pos_emb(positions 0, 1, ..., T-1)
    each block, pre-norm, the residual stream x carried through unnormalised:
        x = x + attn(ln1(x))
        x = x + mlp(ln2(x))
    logits = head(ln_f(x))
attn(h): q, k, v = qkv(h) split in three along the last dim; each split into n_heads heads of
d_model // n_heads (head i takes columns i*Dh .. (i+1)*Dh - 1); per head, scores = q k^T / sqrt(Dh),
causal: position i attends to positions 0 .. i (itself included) and never to a later one;
softmax over the keys; the heads' outputs put back side by side (B, T, d_model), then proj.
So the logits at position t depend on tokens 0 .. t only.

next_token_loss(model, tokens): tokens (B, T) int64, T >= 2. The language-modelling loss: the
mean cross entropy, over all B * (T - 1) predictions, of the logits at position t (from model's
forward on the tokens) against the next token, tokens[:, t + 1], for t = 0 .. T-2. A scalar tensor
in the model's dtype, differentiable with respect to the model's parameters. `model` may be any
module with the forward above (the judge also passes its own).
"""

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
        # softmax(q k^T / sqrt(Dh)) v over keys 0 .. i for query i (is_causal masks later keys)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).reshape(b, t, c)
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
        x = x + self.attn(self.ln1(x))  # pre-norm: the residual stream stays unnormalised
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
    logits = model(tokens)  # (B, T, vocab)
    # cross_entropy over (B, vocab, T - 1) against (B, T - 1): the mean over all B * (T - 1) predictions
    return F.cross_entropy(logits[:, :-1].transpose(1, 2), tokens[:, 1:], reduction="mean")
