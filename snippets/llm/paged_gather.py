import torch
import torch.nn.functional as F

torch.manual_seed(0)
H, D, page, n_pages = 2, 4, 4, 8
lengths = [6, 3]                                   # two sequences of different length

pool_k = torch.zeros(n_pages, page, H, D)          # one shared pool of pages
block_table = [[5, 2], [7]]                        # logical block i of seq b -> physical page
dense_k = [torch.randn(n, H, D) for n in lengths]  # what a dense per-sequence cache would hold

for b, n in enumerate(lengths):                    # write token t to (table[t // page], t % page)
    for t in range(n):
        pool_k[block_table[b][t // page], t % page] = dense_k[b][t]

for b, n in enumerate(lengths):                    # gather the pages back in logical order
    pages = torch.tensor(block_table[b])
    gathered = pool_k[pages].reshape(-1, H, D)[:n]
    print(f"seq {b}: pages {block_table[b]}, gathered == dense: {torch.equal(gathered, dense_k[b])}")

# Attention over the gathered cache equals attention over the dense one.
q = torch.randn(1, H, 1, D)
k_paged = pool_k[torch.tensor(block_table[0])].reshape(-1, H, D)[:lengths[0]]
out_paged = F.scaled_dot_product_attention(q, k_paged.transpose(0, 1)[None], k_paged.transpose(0, 1)[None])
out_dense = F.scaled_dot_product_attention(q, dense_k[0].transpose(0, 1)[None], dense_k[0].transpose(0, 1)[None])
print("attention output equal:", torch.equal(out_paged, out_dense))
print("pages in use:", sum(len(t) for t in block_table), "of", n_pages)
