#| expect: RuntimeError
from torch import nn

checkpoint = nn.Linear(3, 2).state_dict()
wider = nn.Linear(3, 4)
wider.load_state_dict(checkpoint, strict=False)  # strict=False does not cover shapes
