import warnings

import torch
from torch.export import Dim

torch.manual_seed(0)

warnings.filterwarnings("ignore", message=".*LeafSpec")  # internal FutureWarning in 2.13
MAX_LEN, D = 16, 8


class Decoder(torch.nn.Module):
    """One attention layer whose K/V cache is a pair of fixed-size buffers."""

    def __init__(self):
        super().__init__()
        self.qkv = torch.nn.Linear(D, 3 * D)
        self.register_buffer("k_cache", torch.zeros(1, MAX_LEN, D))
        self.register_buffer("v_cache", torch.zeros(1, MAX_LEN, D))

    def forward(self, x, input_pos):  # x: [1, seq, D], input_pos: [seq] absolute positions
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        self.k_cache.index_copy_(1, input_pos, k)  # write this step's keys in place
        self.v_cache.index_copy_(1, input_pos, v)
        seen = torch.arange(MAX_LEN) <= input_pos[:, None]  # causal mask over the whole cache
        scores = (q @ self.k_cache.transpose(1, 2)).masked_fill(~seen, float("-inf"))
        return torch.softmax(scores, dim=-1) @ self.v_cache


model = Decoder().eval()
seq = Dim("seq", max=MAX_LEN)
prefill = torch.export.export(model, (torch.randn(1, 5, D), torch.arange(5)),
                              dynamic_shapes=({1: seq}, {0: seq}))
decode = torch.export.export(model, (torch.randn(1, 1, D), torch.tensor([5])))
print("prefill seq range:", list(prefill.range_constraints.values()))
print("in-place writes:", [str(n.target) for n in prefill.graph.nodes if "index_copy" in str(n.target)])
sig = prefill.run_decompositions().graph_signature
print("after run_decompositions:", [(o.kind.name, o.target) for o in sig.output_specs])

pre_m, dec_m = prefill.module(), decode.module()
print("one cache for both:", pre_m.k_cache is dec_m.k_cache is model.k_cache)

tokens = torch.randn(1, 8, D)


def generate(prefill_fn, decode_fn):  # 5 prompt tokens, then 3 steps of one token
    model.k_cache.zero_()
    model.v_cache.zero_()
    out = [prefill_fn(tokens[:, :5], torch.arange(5))]
    for p in range(5, 8):
        out.append(decode_fn(tokens[:, p:p + 1], torch.tensor([p])))
    return torch.cat(out, dim=1)


with torch.no_grad():
    two_programs = generate(pre_m, dec_m)
    prefill_only = generate(pre_m, pre_m)  # one-token steps through the dynamic program
    model.k_cache.zero_()
    model.v_cache.zero_()
    full = model(tokens, torch.arange(8))  # eager, all 8 tokens at once
print("prefill + decode programs == one eager pass:", torch.allclose(two_programs, full, atol=1e-6))
print("prefill program for every step == one eager pass:", torch.allclose(prefill_only, full, atol=1e-6))
try:
    pre_m(torch.randn(1, MAX_LEN + 1, D), torch.arange(MAX_LEN + 1))
except Exception as e:
    print(f"{MAX_LEN + 1} tokens: {e}")
