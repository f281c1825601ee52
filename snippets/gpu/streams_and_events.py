import torch

# What a CPU-only build of torch says about streams, events and record_stream.
print("CUDA built:", torch.backends.cuda.is_built())
try:
    torch.cuda.Stream()
except RuntimeError as e:
    print("torch.cuda.Stream():", e)

# The device-generic handle: CPU has one stream, id 0, and no events.
s = torch.Stream("cpu")
print("torch.Stream('cpu'):", s)
try:
    s.record_event()
except RuntimeError as e:
    print("record_event():", e)

# record_stream is an ATen op; the schema marks self as written (a!).
print("schema:", torch.ops.aten.record_stream.default._schema)
try:
    torch.ones(3).record_stream(s)
except NotImplementedError as e:
    print("CPU tensor:", str(e).splitlines()[0][:75].rstrip())

