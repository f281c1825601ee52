#| expect: RuntimeError
import warnings

import torch


def forward(x):
    y = x.exp()
    y.add_(1)  # the culprit: exp saved y
    return y.sum()


def print_anomaly_warnings(caught):
    for w in caught:
        if str(w.message).startswith("Error detected"):
            print(w.message)


x = torch.tensor([0.5, 1.0], requires_grad=True)

# Anomaly mode turned on for the backward only: the forward left no traceback.
loss = forward(x)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        with torch.autograd.detect_anomaly(check_nan=False):
            loss.backward()
    except RuntimeError:
        print("backward raised RuntimeError")
    print_anomaly_warnings(caught)
print()

# Anomaly mode on for the forward and the backward.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        with torch.autograd.detect_anomaly(check_nan=False):
            forward(x).backward()
    finally:
        print_anomaly_warnings(caught)
