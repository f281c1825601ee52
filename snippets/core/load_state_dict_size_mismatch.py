#| expect: RuntimeError
import torch
from torch import nn

torch.manual_seed(0)

checkpoint = nn.Linear(3, 2).state_dict()
wider = nn.Linear(3, 4)
wider.load_state_dict(checkpoint, strict=False)  # strict=False does not cover shapes
