import torch
import torch._inductor.config as inductor_config

for mode, options in torch._inductor.list_mode_options().items():
    print(f"{mode!r:30} {options}")

print("Inductor options in list_options():", len(torch._inductor.list_options()))
for key in ("max_autotune", "coordinate_descent_tuning", "triton.cudagraphs"):
    print(f"  default {key} = {inductor_config.get_config_copy()[key]}")


def f(x):
    return x.sin()


accepted = []
for mode in torch._inductor.list_mode_options():
    torch.compile(f, mode=mode)  # checked here, before anything is compiled
    accepted.append(mode)
print("accepted by torch.compile(mode=...):", accepted)

for kwargs in ({"mode": "fastest"}, {"mode": "max-autotune", "options": {"max_autotune": True}}):
    try:
        torch.compile(f, **kwargs)
    except RuntimeError as e:
        print(f"{kwargs} -> RuntimeError: {e}")
