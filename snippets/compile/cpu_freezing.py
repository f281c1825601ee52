#| devices: cpu
#| timeout: 240
import logging
import re

import torch
from torch._dynamo.utils import counters
from torch._inductor.utils import run_and_get_code

torch.manual_seed(0)

torch.set_num_threads(2)  # the C++ Inductor writes depends on the thread count: pin it
bypass = []  # why the FX graph cache was skipped, from Inductor's own log line
handler = logging.Handler()
handler.emit = lambda record: bypass.append(record.getMessage())
cache_log = logging.getLogger("torch._inductor.codecache")
cache_log.addHandler(handler)
cache_log.setLevel(logging.INFO)
cache_log.propagate = False  # keep its lines (with cache keys) off the output


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3)
        self.bn = torch.nn.BatchNorm2d(8)
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        return self.fc(y.mean((2, 3)))


model = Net().eval()
x = torch.randn(2, 3, 8, 8)

for freezing, grad in ((False, False), (True, True), (True, False)):
    torch._dynamo.reset()
    counters.clear()
    bypass.clear()
    torch._inductor.config.freezing = freezing
    compiled = torch.compile(model)
    with torch.set_grad_enabled(grad):
        out, codes = run_and_get_code(compiled, x)
    code = codes[0]
    inputs = re.search(r"def call\(self, args\):\n\s+(.*?) = args", code).group(1)
    print(f"freezing={freezing}, grad enabled={grad}:")
    print("  inputs of call():", len([a for a in inputs.split(",") if a.strip()]))
    print("  ops it calls:", sorted(set(re.findall(r"(?<!')(?:extern_kernels|torch\.ops\.(?:aten|mkl|mkldnn))\.\w+", code))))
    print("  constants in the code (_frozen_param):", len(set(re.findall(r"_frozen_param\d+", code))))
    folds = {k: v for k, v in counters["inductor"].items() if "folding" in k or "weight_pack" in k or "unary_fusion" in k}
    print("  folding, packing and fusion counters:", folds)
    print("  FX graph cache:", [m for m in bypass if "Bypassing" in m] or "not bypassed")
    print("  matches eager:", torch.allclose(out, model(x), atol=1e-5))

with torch.no_grad():  # `compiled` is the frozen model of the last run, already compiled
    model.conv.weight.mul_(2)  # update a weight after the compile
    print("after conv.weight.mul_(2), frozen model matches eager:", torch.allclose(compiled(x), model(x), atol=1e-5))
