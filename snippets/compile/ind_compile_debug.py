#| devices: cpu
#| timeout: 240
import glob
import logging
import os
import re

os.environ["TORCH_COMPILE_DEBUG"] = "1"  # read when torch is imported
import torch  # noqa: E402

torch.manual_seed(0)

logging.getLogger("torch._inductor.debug").setLevel(logging.ERROR)  # the "debug trace: <path>" line


def f(x):
    return torch.softmax(x, dim=-1) * 2


torch.compile(f)(torch.randn(8, 16))
(graph_dir,) = glob.glob("torch_compile_debug/run_*/torchinductor/model__*")
print("files for the compiled graph:", sorted(os.listdir(graph_dir)))
for name in ("ir_pre_fusion.txt", "ir_post_fusion.txt"):
    nodes = re.findall(r"^(op[\w]*): (\w+)", open(os.path.join(graph_dir, name)).read(), flags=re.M)
    print(f"{name}: {nodes}")
