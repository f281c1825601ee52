import torch
from torch.nn.attention.experimental._paged_attention import PagedAttention

# Requests: (prompt length, tokens to generate). Two batch slots, pages of 4 tokens.
requests = [(5, 3), (2, 8), (6, 2), (3, 4)]
slots = 2

# Static batching: a batch runs until its longest request ends; then the next batch starts.
static_steps = sum(max(n for _, n in requests[i:i + slots]) for i in range(0, len(requests), slots))

# Continuous batching: every decode step, finished requests leave and waiting ones join.
pa = PagedAttention(n_pages=8, page_size=4, max_batch_size=slots, device="cpu")
waiting = list(enumerate(requests))
running = {}                                   # slot -> [request id, current length, tokens left]
step = 0
while waiting or running:
    for s in range(slots):                     # admit into free slots
        if s not in running and waiting:
            rid, (prompt, new) = waiting.pop(0)
            pa.reserve(torch.tensor([s]), torch.tensor(prompt))
            running[s] = [rid, prompt, new]
    step += 1
    for s, r in running.items():               # one decode step: each request adds one token
        r[1] += 1
        r[2] -= 1
        pa.reserve(torch.tensor([s]), torch.tensor(r[1]))
    print(f"step {step}: running {sorted(r[0] for r in running.values())}"
          f"  free pages {len(pa.empty_pages)}")
    for s in [s for s, r in running.items() if r[2] == 0]:
        pa.erase(torch.tensor([s]))            # finished: its pages go back to the pool
        del running[s]
print("decode steps  static:", static_steps, " continuous:", step)
