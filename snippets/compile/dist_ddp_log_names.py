import os
import subprocess
import sys

# Each setting in a fresh interpreter: TORCH_LOGS is read when torch is imported.
for setting in ("dist_ddp", "ddp", "ddp_graphs", "distributed", "dynamo"):
    env = dict(os.environ, TORCH_LOGS=setting)
    run = subprocess.run([sys.executable, "-c", "import torch"], env=env,
                         check=False, capture_output=True, text=True)
    invalid = [line for line in run.stderr.splitlines() if line.startswith("Invalid log settings")]
    print(f"TORCH_LOGS={setting}: import torch exit code {run.returncode}",
          f"| ValueError: {invalid[0]}" if invalid else "")
