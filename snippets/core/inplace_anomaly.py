#| expect: RuntimeError
import warnings

import torch


def forward(x):
    y = x.exp()
    y.add_(1)  # the culprit: exp saved y
    return y.sum()


x = torch.tensor([0.5, 1.0], requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        with torch.autograd.detect_anomaly(check_nan=False):
            forward(x).backward()
    finally:
        for w in caught:
            if str(w.message).startswith("Error detected"):
                print(w.message)
