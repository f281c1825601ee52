#| devices: cpu
import re
import warnings

import torch


class Stateful(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.steps = 0                # an existing int attribute
        self.last = torch.zeros(2)    # an existing tensor attribute (not a buffer)

    def forward(self, x):
        self.steps += 1               # changes an existing attribute
        self.last = x * 3             # replaces an existing attribute
        self.cache = x * 2            # creates a new attribute
        return x + 1


for strict in (False, True):
    m = Stateful()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.export.export(m, (torch.ones(2),), strict=strict)
    print(f"strict={strict}")
    for w in caught:
        text = str(w.message)
        if "assigned during export" in text:  # the names come in no fixed order: sort them
            print("  warning: assigned during export:", sorted(re.findall(r"self\.\w+", text)))
            print("          ", text.split(". ")[1].split(" (")[0])
        else:
            print("  warning:", text.split(". Here")[0])
    print("  after export: steps =", m.steps, "| last =", m.last,
          "| cache =", type(getattr(m, "cache", None)).__name__)
