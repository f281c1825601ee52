#| devices: cpu
#| timeout: 300
import logging
import os
import re
import subprocess
import sys

import torch

torch.manual_seed(0)

torch._logging.set_logs(dynamo=logging.ERROR)  # keep the warnings (they name timestamped paths) off
torch._dynamo.config.debug_dir_root = os.path.join(os.getcwd(), "torch_compile_debug")
torch._dynamo.config.repro_after = "aot"  # TORCHDYNAMO_REPRO_AFTER=aot: check each graph Inductor compiles
torch._dynamo.config.repro_level = 4  # TORCHDYNAMO_REPRO_LEVEL=4: on an accuracy failure, dump a launcher
torch._inductor.config.cpp.inject_relu_bug_TESTING_ONLY = "accuracy"  # Inductor's C++ relu now adds 1


def f(x):
    y = torch.sin(x) * 2
    return torch.relu(y) + torch.cos(x)


try:
    torch.compile(f)(torch.randn(16))
except Exception as e:
    print(f"{type(e).__module__}.{type(e).__name__}: {e}")

print("files written:")
for root, _, names in sorted(os.walk(".")):
    for name in sorted(names):
        path = re.sub(r"run_[\d_]+-pid_\d+", "run_<time>-pid_<pid>", os.path.join(root, name))
        if "storages" not in path:
            print("  ", path)
launcher = next(os.path.join(r, n) for r, _, ns in os.walk(".") for n in ns if n == "minifier_launcher.py")
print("   and", sum(len(ns) for r, _, ns in os.walk(".") if r.endswith("storages")), "file(s) under checkpoints/storages")

# Run the minifier, in-process (--no-isolate) to keep it short.
run = subprocess.run([sys.executable, launcher, "minify", "--no-isolate", "--skip-sanity"],
                     capture_output=True, text=True)
print("minifier exit code:", run.returncode)
for line in (run.stdout + run.stderr).splitlines():
    if line.startswith(("SUCCESS", "Made", "Wrote")):
        print("  ", line)
forward = open("repro.py").read().split("def forward(")[1].split("def load_args")[0]
print("repro.py forward(" + forward.rstrip())
