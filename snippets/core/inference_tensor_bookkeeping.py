import torch

w = torch.ones(3, requires_grad=True)

with torch.no_grad():
    a = w * 2
    a_view = a[1:]
    print("no_grad:        grad enabled", torch.is_grad_enabled(),
          "| inference mode", torch.is_inference_mode_enabled())
    print("no_grad:        w.requires_grad", w.requires_grad, "(the leaf keeps its flag)")
with torch.inference_mode():
    b = w * 2
    b_view = b[1:]
    print("inference_mode: grad enabled", torch.is_grad_enabled(),
          "| inference mode", torch.is_inference_mode_enabled())

print("no_grad result:        requires_grad", a.requires_grad, "| version", a._version,
      "| view tracked", a_view._is_view())
try:
    version = b._version
except RuntimeError as err:
    version = f"RuntimeError: {err}"
print("inference_mode result: requires_grad", b.requires_grad, "| version", version,
      "| view tracked", b_view._is_view())

with torch.no_grad():
    w_view = w[1:]  # a slice of a leaf that requires grad, taken under no_grad
print("no_grad slice of w is a view:", w_view._is_view(), "| shares w's storage:",
      w_view.untyped_storage().data_ptr() == w.untyped_storage().data_ptr())
try:
    w_view.mul_(2)  # later, with grad mode on
except RuntimeError as err:
    print("in-place write to it with grad on: RuntimeError:", str(err).split(". ")[0])
