# mistake: the cache holds each block's normalised input ln1(x), (B, T, C), and k and v are
# projected again from it for the whole sequence at every step: the logits are right, but it is
# not a KV cache and the projections grow with the sequence
# fails: cache_layout
import math

import torch


def forward_step(model, tokens, cache=None):
    b, t_new = tokens.shape
    t_past = 0 if cache is None else cache[0].shape[1]
    positions = torch.arange(t_past, t_past + t_new, device=tokens.device)  # after the cache
    x = model.tok_emb(tokens) + model.pos_emb(positions)
    # New query i (at position t_past + i) sees keys 0 .. t_past + i: the triangle at the bottom
    # right of the (t_new, t_past + t_new) scores. With one new token it sees every key.
    allowed = torch.ones(t_new, t_past + t_new, dtype=torch.bool, device=tokens.device)
    allowed = allowed.tril(diagonal=t_past)
    new_cache = []
    for layer, block in enumerate(model.blocks):
        attn, h = block.attn, block.ln1(x)
        c = h.shape[-1]
        if cache is not None:
            h = torch.cat([cache[layer], h], dim=1)  # the block's normalised inputs, (B, T, C)
        new_cache.append(h)
        q, k, v = attn.qkv(h).split(c, dim=-1)  # k and v re-projected for every token
        q = q[:, t_past:]
        q = q.reshape(b, t_new, attn.n_heads, c // attn.n_heads).transpose(1, 2)
        k, v = (z.view(b, t_past + t_new, attn.n_heads, c // attn.n_heads).transpose(1, 2)
                for z in (k, v))
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])  # (B, H, T_new, T_past + T_new)
        weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
        y = (weights @ v).transpose(1, 2).reshape(b, t_new, c)
        x = x + attn.proj(y)
        x = x + block.mlp(block.ln2(x))
    return model.head(model.ln_f(x)), new_cache


def generate(model, prompt, steps):
    logits, cache = forward_step(model, prompt)  # the prefill: the whole prompt at once
    out = [prompt]
    for step in range(steps):
        token = logits[:, -1].argmax(dim=-1, keepdim=True)  # (B, 1), greedy
        out.append(token)
        if step + 1 < steps:
            logits, cache = forward_step(model, token, cache)  # one token, its own position
    return torch.cat(out, dim=1)
