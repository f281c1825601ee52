import torch
from _sampling import repetition_penalty

torch.manual_seed(0)
logits = torch.tensor([[3.0, 1.0, -0.5, -2.0]])
seen = torch.tensor([[0, 2]])          # tokens 0 and 2 already generated
penalty = 1.5


def probs(x):
    return [round(v, 3) for v in x.softmax(-1)[0].tolist()]


print("logits        ", logits[0].tolist(), "probs", probs(logits))
conv = repetition_penalty(logits, seen, penalty)
print("convention    ", [round(v, 3) for v in conv[0].tolist()], "probs", probs(conv))

# the bug the sign rule avoids: dividing a negative logit moves it UP
naive = logits.clone()
naive[0, seen[0]] /= penalty
print("divide always ", [round(v, 3) for v in naive[0].tolist()], "probs", probs(naive))
print("token 2 prob: before", probs(logits)[2], "| convention", probs(conv)[2],
      "| divide always", probs(naive)[2])
print("penalty=1.0 changes nothing:", torch.equal(repetition_penalty(logits, seen, 1.0), logits))
# a token seen twice is penalised once: gather/scatter with duplicates is not cumulative here
twice = repetition_penalty(logits, torch.tensor([[0, 0, 2]]), penalty)
print("token 0 listed twice:", round(twice[0, 0].item(), 3))
