#| devices: cpu
import os
import tempfile

trace_dir = tempfile.mkdtemp()
os.environ["TORCH_TRACE"] = trace_dir  # read when torch is imported: set it first

import collections  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import torch  # noqa: E402

torch.manual_seed(0)


def f(x):
    y = torch.sin(x)
    print("a graph break")
    return y * 2


compiled = torch.compile(f, backend="eager")  # Dynamo only: the trace is about Dynamo's work
compiled(torch.randn(4))
compiled(torch.randn(8))  # a new size: a recompile

files = os.listdir(trace_dir)
print("files in TORCH_TRACE dir:", len(files), "named like", files[0][:26] + "...log")
lines = open(os.path.join(trace_dir, files[0])).read().splitlines()
envelopes = [json.loads(line.split("] ", 1)[1]) for line in lines if not line.startswith("\t")]
glog_or_payload = all(re.match(r"[VIWE]\d{4} ", line) or line.startswith("\t") for line in lines)
print("each line: a glog prefix and a JSON envelope, or a tab-indented payload line:", glog_or_payload)
ids = {"frame_id", "frame_compile_id", "attempt", "has_payload", "compiled_autograd_id", "rank",
       "str"}  # "str" entries intern file names; how many depends on how the script was started
kinds = collections.Counter(key for env in envelopes for key in env if key not in ids)
print("events by kind:", dict(sorted(kinds.items())))
first_graph = next(env for env in envelopes if "dynamo_output_graph" in env)
print("a dynamo_output_graph envelope's keys:", sorted(first_graph))

out = os.path.join(tempfile.mkdtemp(), "tl_out")
tlparse = os.path.join(os.path.dirname(sys.executable), "tlparse")  # pip install tlparse==0.4.3
if not os.path.exists(tlparse):
    sys.exit(f"no tlparse beside {sys.executable}: pip install tlparse==0.4.3")
run = subprocess.run([tlparse, os.path.join(trace_dir, files[0]), "-o", out, "--no-browser"],
                     capture_output=True, text=True)
print("tlparse exit code:", run.returncode, "|", run.stderr.strip().splitlines()[0])
for root, _, names in sorted(os.walk(out)):
    print(" ", os.path.relpath(root, out) + "/", sorted(names))
print("recompile_reasons_10.json:", open(os.path.join(out, "-_0_1_0", "recompile_reasons_10.json")).read().strip())

# --strict: the same trace, then the trace with one line that has no glog prefix appended
trace = os.path.join(trace_dir, files[0])
strict = subprocess.run([tlparse, trace, "-o", out + "_strict", "--no-browser", "--strict"],
                        check=False, capture_output=True, text=True)
print("tlparse --strict exit code:", strict.returncode)
bad = os.path.join(tempfile.mkdtemp(), "bad.log")
with open(trace) as src, open(bad, "w") as dst:
    dst.write(src.read() + "not a glog line\n")
strict_bad = subprocess.run([tlparse, bad, "-o", out + "_bad", "--no-browser", "--strict"],
                            check=False, capture_output=True, text=True)
print("tlparse --strict exit code, with a line without a glog prefix appended:", strict_bad.returncode)
