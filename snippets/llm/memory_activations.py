import torch
import torch.nn.functional as F

torch.manual_seed(0)


class Layer(torch.nn.Module):
    """A pre-norm transformer layer, float32, no dropout."""

    def __init__(self, h, heads, fused):
        super().__init__()
        self.heads, self.fused = heads, fused
        self.ln1, self.ln2 = torch.nn.LayerNorm(h), torch.nn.LayerNorm(h)
        self.qkv, self.proj = torch.nn.Linear(h, 3 * h), torch.nn.Linear(h, h)
        self.up, self.down = torch.nn.Linear(h, 4 * h), torch.nn.Linear(4 * h, h)

    def forward(self, x):  # x: (batch, seq, h)
        b, s, h = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, s, 3, self.heads, h // self.heads).permute(2, 0, 3, 1, 4)
        if self.fused:  # scaled_dot_product_attention: no (seq, seq) matrix kept for backward
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:           # written out: the softmax output (batch, heads, seq, seq) is saved
            mask = torch.ones(s, s, dtype=torch.bool).triu(1)
            scores = (q @ k.transpose(-1, -2) / (h // self.heads) ** 0.5).masked_fill(mask, float("-inf"))
            a = scores.softmax(-1) @ v
        x = x + self.proj(a.transpose(1, 2).reshape(b, s, h))
        return x + self.down(F.gelu(self.up(self.ln2(x))))


def saved_activation_bytes(layer, x):
    """Bytes of the distinct storages autograd saves for backward, weights and the input excluded."""
    skip = {p.untyped_storage().data_ptr() for p in layer.parameters()} | {x.untyped_storage().data_ptr()}
    storages = {}

    def pack(t):
        if t.untyped_storage().data_ptr() not in skip:
            storages[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        layer(x)
    return storages


h, heads, b = 64, 4, 2
print(f"h={h}, heads={heads}, batch={b}, float32 (4 bytes)")
print("attention   seq  measured bytes/token  formula bytes/token")
for fused in (False, True):
    for s in (64, 128):
        layer = Layer(h, heads, fused)
        x = torch.randn(b, s, h, requires_grad=True)
        storages = saved_activation_bytes(layer, x)
        measured = sum(storages.values()) / (b * s)
        formula = 4 * (15 * h + 4)          # 15 h-sized vectors + 4 LayerNorm statistics
        if fused:
            formula += 4 * heads            # the kernel's log-sum-exp, one per head
        else:
            formula += 4 * heads * s + s / b  # softmax probabilities, plus the (s, s) bool mask
        print(f"{'sdpa' if fused else 'written out':<11} {s:>4}  {measured:>19.0f}  {formula:>19.0f}")
print("sdpa: each saved storage, in float32 elements per token:",
      sorted(n // (4 * b * s) for n in storages.values()))

# the same count at a 7B-like width (arithmetic, this layer's shape, 2-byte activations, sdpa)
h, layers, tokens = 4096, 32, 8 * 4096
per_token = 2 * (15 * h + 4 + 32) * layers  # 32 heads of log-sum-exp
print(f"h={h}, {layers} layers, 2 bytes: {per_token / 2**20:.2f} MiB/token; "
      f"{tokens} tokens: {per_token * tokens / 2**30:.0f} GiB")

# what the CPU attention kernel keeps for backward: no (seq, seq) tensor
q = torch.randn(1, 4, 8, 16, requires_grad=True)
kept = []
with torch.autograd.graph.saved_tensors_hooks(lambda t: kept.append(tuple(t.shape)) or t, lambda t: t):
    out = F.scaled_dot_product_attention(q, q * 1, q * 2, is_causal=True)
print(out.grad_fn.name(), "saves shapes", kept, "for (batch, heads, seq, dim) = (1, 4, 8, 16)")
