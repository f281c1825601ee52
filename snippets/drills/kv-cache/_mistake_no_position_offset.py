# mistake: the positions are torch.arange(T_new), as in forward: right for the prefill, but every
# decode step's token gets position 0 instead of its place after the cache
# fails: decode_step
import math

import torch


def forward_step(model, tokens, cache=None):
    b, t_new = tokens.shape
    t_past = 0 if cache is None else cache[0][0].shape[2]
    positions = torch.arange(t_new, device=tokens.device)  # as forward does
    x = model.tok_emb(tokens) + model.pos_emb(positions)
    # New query i (at position t_past + i) sees keys 0 .. t_past + i: the triangle at the bottom
    # right of the (t_new, t_past + t_new) scores. With one new token it sees every key.
    allowed = torch.ones(t_new, t_past + t_new, dtype=torch.bool, device=tokens.device)
    allowed = allowed.tril(diagonal=t_past)
    new_cache = []
    for layer, block in enumerate(model.blocks):
        attn, h = block.attn, block.ln1(x)
        c = h.shape[-1]
        q, k, v = attn.qkv(h).split(c, dim=-1)
        q, k, v = (z.view(b, t_new, attn.n_heads, c // attn.n_heads).transpose(1, 2) for z in (q, k, v))
        if cache is not None:
            past_k, past_v = cache[layer]  # this block's own keys and values
            k, v = torch.cat([past_k, k], dim=2), torch.cat([past_v, v], dim=2)  # along T
        new_cache.append((k, v))  # appended once, before attending: the new token sees itself
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
