# The follow-ups of kv-cache, on the pinned torch: what the cache costs in memory per token, what a
# decode step costs with the cache and without it (counted by FlopCounterMode), and a variant that
# writes into a preallocated cache instead of growing it with torch.cat.
import math

import torch
from _reference import forward_step, generate
from _starter import TinyGPT
from torch.utils.flop_counter import FlopCounterMode

torch.manual_seed(0)
model = TinyGPT(seed=0)
layers, heads = len(model.blocks), model.blocks[0].attn.n_heads
head_dim = model.tok_emb.embedding_dim // heads
prompt = torch.randint(0, 64, (2, 10))

# Memory: 2 (k and v) x layers x heads x head_dim x bytes per element, for every token.
with torch.no_grad():
    _, cache = forward_step(model, prompt)
cache_bytes = sum(z.numel() * z.element_size() for pair in cache for z in pair)
print(f"toy model: {layers} layers, {heads} heads, head_dim {head_dim}, float32")
print("cache after a prefill of B=2 x T=10:", cache_bytes, "bytes =",
      cache_bytes // (2 * 10), "bytes per token")
print("2 * layers * heads * head_dim * 4 bytes =", 2 * layers * heads * head_dim * 4)
for name, kv_heads in (("32 heads", 32), ("8 key/value heads (grouped-query)", 8)):
    per_token = 2 * 32 * kv_heads * 128 * torch.tensor([], dtype=torch.bfloat16).element_size()
    print(f"32 layers, {name}, head_dim 128, bfloat16: {per_token // 1024} KiB per token,"
          f" {per_token * 4096 / 2**30:g} GiB for 4,096 tokens")


def flops(fn):
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        fn()
    return counter.get_total_flops()


# Cost: one decode step with the cache against recomputing the whole sequence (the same code,
# cache=None), B=1. The step's work is one row through every layer plus one query row against
# T keys in each block's attention.
seq = torch.randint(0, 64, (1, 32))
for t in (8, 16, 31):
    with torch.no_grad():
        _, past = forward_step(model, seq[:, :t])
    cached = flops(lambda t=t, past=past: forward_step(model, seq[:, t:t + 1], past))
    full = flops(lambda t=t: forward_step(model, seq[:, :t + 1]))
    print(f"token at position {t}: {cached} FLOPs with the cache, {full} recomputing"
          f" {t + 1} tokens ({full / cached:.1f} x)")


def generate_without_cache(model, prompt, steps):
    tokens = prompt
    for _ in range(steps):
        logits, _ = forward_step(model, tokens)
        tokens = torch.cat([tokens, logits[:, -1].argmax(-1, keepdim=True)], dim=1)
    return tokens


# The counts above are of the reference's own matmul attention. The model's forward calls
# F.scaled_dot_product_attention, which on CPU runs one op that FlopCounterMode gives no FLOPs.
q = torch.randn(1, heads, 31, head_dim, requires_grad=True)
with FlopCounterMode(display=False) as counter:
    out = torch.nn.functional.scaled_dot_product_attention(q, q, q, is_causal=True)
print("FLOPs FlopCounterMode counts for SDPA on CPU:", counter.get_total_flops(),
      "| its grad_fn:", type(out.grad_fn).__name__)

short = seq[:, :4]
with_cache = flops(lambda: generate(model, short, 28))
without = flops(lambda: generate_without_cache(model, short, 28))
with torch.no_grad():
    same = torch.equal(generate(model, short, 28), generate_without_cache(model, short, 28))
print(f"generate 28 tokens after a prompt of 4: {with_cache} FLOPs with the cache,"
      f" {without} without ({without / with_cache:.1f} x), same tokens: {same}")

# torch.cat makes a new tensor each step: the whole cache is copied to grow it by one token.
with torch.no_grad():
    _, grown = forward_step(model, seq[:, 31:32], past)  # past: the 31 tokens before position 31
old_k, new_k = past[0][0], grown[0][0]
print("after one step, block 0's k is a new tensor:", new_k.data_ptr() != old_k.data_ptr(),
      "| its first 31 rows equal the old k:", torch.equal(new_k[:, :, :31], old_k))


# The variant: one (B, H, max_len, Dh) buffer per block, written in place, attended up to the end.
def static_step(model, tokens, buffers, t_past):
    b, t_new = tokens.shape
    end = t_past + t_new
    x = model.tok_emb(tokens) + model.pos_emb(torch.arange(t_past, end))
    allowed = torch.ones(t_new, end, dtype=torch.bool).tril(diagonal=t_past)
    for block, (k_buf, v_buf) in zip(model.blocks, buffers, strict=True):
        h = block.ln1(x)
        c = h.shape[-1]
        q, k, v = block.attn.qkv(h).split(c, dim=-1)
        q, k, v = (z.view(b, t_new, heads, head_dim).transpose(1, 2) for z in (q, k, v))
        k_buf[:, :, t_past:end], v_buf[:, :, t_past:end] = k, v  # no new tensor, no copy of the past
        scores = q @ k_buf[:, :, :end].transpose(-2, -1) / math.sqrt(head_dim)
        weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
        x = x + block.attn.proj((weights @ v_buf[:, :, :end]).transpose(1, 2).reshape(b, t_new, c))
        x = x + block.mlp(block.ln2(x))
    return model.head(model.ln_f(x))


with torch.no_grad():
    shape = (1, heads, model.max_len, head_dim)
    buffers = [(torch.zeros(shape), torch.zeros(shape)) for _ in model.blocks]
    pointer = buffers[0][0].data_ptr()
    logits = [static_step(model, seq[:, :8], buffers, 0)]
    logits += [static_step(model, seq[:, t:t + 1], buffers, t) for t in range(8, 32)]
    reference = model(seq)
print("preallocated cache, a prefill of 8 then 24 steps: logits equal model(seq) within 1e-5:",
      torch.allclose(torch.cat(logits, dim=1), reference, atol=1e-5),
      "| same buffer throughout:", buffers[0][0].data_ptr() == pointer)
