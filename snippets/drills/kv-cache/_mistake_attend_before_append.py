# mistake: a decode step attends over the cached keys and values and only then appends its own:
# the new token never sees itself (the cache it returns is right, the logits are not)
# fails: decode_step
import math

import torch


def forward_step(model, tokens, cache=None):
    b, t_new = tokens.shape
    t_past = 0 if cache is None else cache[0][0].shape[2]
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
        q, k, v = attn.qkv(h).split(c, dim=-1)
        q, k, v = (z.view(b, t_new, attn.n_heads, c // attn.n_heads).transpose(1, 2) for z in (q, k, v))
        if cache is None:  # the prefill attends over its own keys
            keys, values, mask = k, v, allowed
            new_cache.append((k, v))
        else:  # a step attends over the cache, then adds its own key and value to it
            keys, values = cache[layer]
            mask = allowed[:, :t_past]
            new_cache.append((torch.cat([keys, k], dim=2), torch.cat([values, v], dim=2)))
        scores = (q @ keys.transpose(-2, -1)) / math.sqrt(q.shape[-1])
        weights = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)
        y = (weights @ values).transpose(1, 2).reshape(b, t_new, c)
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
