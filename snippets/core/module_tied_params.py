import torch
from torch import nn

torch.manual_seed(0)


class TinyLM(nn.Module):
    def __init__(self, vocab=10, dim=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.embed.weight  # tie: one Parameter, two owners


m = TinyLM()
print("same object:", m.lm_head.weight is m.embed.weight)
print("named_parameters():", [n for n, _ in m.named_parameters()])
print("named_parameters(remove_duplicate=False):",
      [n for n, _ in m.named_parameters(remove_duplicate=False)])
print("numel via parameters():", sum(p.numel() for p in m.parameters()))
sd = m.state_dict()
print("state_dict keys:", list(sd))
print("both keys share storage:",
      sd["embed.weight"].data_ptr() == sd["lm_head.weight"].data_ptr())

# Replacing one of the two Parameter objects unties them, without a warning.
m.lm_head.weight = nn.Parameter(torch.zeros(10, 4))
print("after replacing lm_head.weight: same object:", m.lm_head.weight is m.embed.weight,
      "| named_parameters():", [n for n, _ in m.named_parameters()])
