import torch
import torch.nn.functional as F

torch.manual_seed(0)
B, H, Dh, MAX = 1, 2, 4, 16
graphs = {"cat": 0, "cat_static_shapes": 0, "static": 0}
symbolic = {}


def counting(name):
    def backend(gm, example_inputs):
        graphs[name] += 1
        vals = [n.meta["example_value"] for n in gm.graph.nodes if n.op == "placeholder"]
        symbolic[name] = any(isinstance(s, torch.SymInt) for x in vals
                             if isinstance(x, torch.Tensor) for s in x.shape)
        return gm.forward
    return backend


# Dynamic cache: the cache grows by torch.cat, so its shape changes every step.
def step_cat(q, k, v, k_cache, v_cache):
    k_cache = torch.cat([k_cache, k], dim=2)
    v_cache = torch.cat([v_cache, v], dim=2)
    return F.scaled_dot_product_attention(q, k_cache, v_cache), k_cache, v_cache


# Static cache: buffers of MAX positions allocated once; the step writes at `pos`
# (a tensor) and masks the positions not written yet. Every shape stays the same.
def step_static(q, k, v, k_buf, v_buf, pos):
    k_buf.index_copy_(2, pos, k)
    v_buf.index_copy_(2, pos, v)
    mask = (torch.arange(MAX) <= pos).view(1, MAX)  # (query, key) for one query
    return F.scaled_dot_product_attention(q, k_buf, v_buf, attn_mask=mask)


cat_c = torch.compile(step_cat, backend=counting("cat"))
cat_s = torch.compile(step_cat, backend=counting("cat_static_shapes"), dynamic=False)
static_c = torch.compile(step_static, backend=counting("static"))

k_cache = torch.randn(B, H, 3, Dh)
v_cache = torch.randn(B, H, 3, Dh)
ks, vs = k_cache, v_cache
k_buf = torch.zeros(B, H, MAX, Dh)
v_buf = torch.zeros(B, H, MAX, Dh)
k_buf[:, :, :3], v_buf[:, :, :3] = k_cache, v_cache
for t in range(3, 9):
    q, k, v = (torch.randn(B, H, 1, Dh) for _ in range(3))
    out_cat, k_cache, v_cache = cat_c(q, k, v, k_cache, v_cache)
    _, ks, vs = cat_s(q, k, v, ks, vs)
    out_static = static_c(q, k, v, k_buf, v_buf, torch.tensor([t]))
    same = torch.allclose(out_cat, out_static, atol=1e-6)
    print(f"position {t}: cache length {k_cache.shape[2]}, match: {same}, graphs: cat {graphs['cat']},",

          f"cat dynamic=False {graphs['cat_static_shapes']}, static {graphs['static']}")

print("last graph has a symbolic size:", symbolic)
print("static buffer bytes (k + v):", k_buf.nbytes + v_buf.nbytes, "from the first step on")
