import os
import subprocess
import sys

import torch

# Which variable wins when both are set? Ask a fresh process each time, since the
# variables are read once, when torch's allocator config is first built.
READ = "import torch; print(torch._C._accelerator_getAllocatorSettings())"
cases = {
    "PYTORCH_ALLOC_CONF only": {"PYTORCH_ALLOC_CONF": "max_split_size_mb:32"},
    "PYTORCH_CUDA_ALLOC_CONF only": {"PYTORCH_CUDA_ALLOC_CONF": "max_split_size_mb:64"},
    "both set": {"PYTORCH_ALLOC_CONF": "max_split_size_mb:32",
                 "PYTORCH_CUDA_ALLOC_CONF": "max_split_size_mb:64"},
}
for label, extra in cases.items():
    env = {k: v for k, v in os.environ.items() if not k.endswith("ALLOC_CONF")}
    env.update(extra)
    out = subprocess.run([sys.executable, "-c", READ], env=env, capture_output=True, text=True)
    print(f"{label:<30} -> {out.stdout.strip()}")

# The shared options are parsed and checked even by this CPU build of torch.
for setting in ["max_split_size_mb:10", "garbage_collection_threshold:1.5",
                "expandable_segments:maybe", "max_split_size_mb:200,expandable_segments:True"]:
    try:
        torch._C._accelerator_setAllocatorSettings(setting)
        print(f"{setting:<46} accepted")
    except Exception as e:
        print(f"{setting:<46} {type(e).__name__}: {e}")
