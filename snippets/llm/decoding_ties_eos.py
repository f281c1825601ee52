#| expect: RuntimeError
import torch

torch.manual_seed(0)
# argmax on a tie returns the first maximal index
tied = torch.tensor([0.5, 2.0, 2.0, -1.0])
print("argmax of", tied.tolist(), "->", tied.argmax().item())

# greedy decoding of a batch with a toy next-token table; token 0 is EOS, -1 marks padding
EOS, PAD, V = 0, -1, 10
torch.manual_seed(0)
table = torch.randn(V, V)
table[:, EOS] = -10.0
table[4, EOS] = 10.0           # only after token 4 does the model say EOS
seqs = torch.tensor([[3], [4]])
done = torch.zeros(2, dtype=torch.bool)
for step in range(4):
    nxt = table[seqs[:, -1]].argmax(-1)
    nxt = torch.where(done, torch.full_like(nxt, PAD), nxt)   # finished rows only pad
    seqs = torch.cat([seqs, nxt[:, None]], dim=1)
    done |= nxt == EOS
    if done.all():
        break
print("greedy, with EOS handling:\n", seqs)

seqs2 = torch.tensor([[3], [4]])
for step in range(4):
    seqs2 = torch.cat([seqs2, table[seqs2[:, -1]].argmax(-1, keepdim=True)], dim=1)
print("greedy, ignoring EOS:\n", seqs2)

# temperature 0 taken literally: logits / 0 gives nan probabilities
probs = (torch.tensor([2.0, 1.0, 0.0]) / 0.0).softmax(-1)
torch.multinomial(probs, 1)
