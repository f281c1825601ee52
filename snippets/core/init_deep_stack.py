import torch
from torch import nn

torch.manual_seed(0)
WIDTH, DEPTH = 256, 50
SHOW = [1, 5, 10, 25, 50]


def build(init):
    layers = [nn.Linear(WIDTH, WIDTH) for _ in range(DEPTH)]  # default init first
    with torch.no_grad():
        for lin in layers:
            if init == "default, bias 0":
                nn.init.zeros_(lin.bias)
            elif init == "N(0, 1)":
                nn.init.normal_(lin.weight, std=1.0)
                nn.init.zeros_(lin.bias)
            elif init == "N(0, 0.01)":
                nn.init.normal_(lin.weight, std=0.01)
                nn.init.zeros_(lin.bias)
            elif init == "kaiming_normal_":
                nn.init.kaiming_normal_(lin.weight, nonlinearity="relu")
                nn.init.zeros_(lin.bias)
    return layers


x0 = torch.randn(512, WIDTH)
print(f"input std {x0.std().item():.3g}; activation std after layer:")
print(f"{'init':<17}" + "".join(f"{d:>10}" for d in SHOW) + f"{'layer-1 grad std':>18}")
for init in ["default", "default, bias 0", "N(0, 1)", "N(0, 0.01)", "kaiming_normal_"]:
    layers = build(init)
    x, stds = x0, {}
    for depth, lin in enumerate(layers, start=1):
        x = torch.relu(lin(x))
        if depth in SHOW:
            stds[depth] = x.std().item()
    if init == "N(0, 1)":
        finite = torch.isfinite(x).all().item()
    x.sum().backward()
    g = layers[0].weight.grad.std().item()
    print(f"{init:<17}" + "".join(f"{stds[d]:>10.3g}" for d in SHOW) + f"{g:>18.3g}")
print("N(0, 1): layer-50 output all finite:", finite)
