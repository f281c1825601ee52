#| expect: AttributeError
import torch
from torch import nn

torch.manual_seed(0)


class Forgot(nn.Module):
    def __init__(self):
        # super().__init__() is missing, so _parameters and _modules do not exist yet
        self.fc = nn.Linear(2, 2)


Forgot()
