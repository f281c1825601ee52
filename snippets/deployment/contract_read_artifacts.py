#| devices: cpu
import json
import logging
import warnings
import zipfile

import onnx
import onnxruntime as ort
import torch
from torch.export import Dim

torch.manual_seed(0)

logging.getLogger("torch.onnx").setLevel(logging.ERROR)  # "torchvision is not installed" notices
warnings.filterwarnings("ignore", category=FutureWarning)  # an internal pytree notice
# The exporter warns that the axis name "batch" is not reused for the second input's axis,
# which shares its constraints; the ONNX graph below still names both axes "batch".
warnings.filterwarnings("ignore", message="# The axis name")


class Scorer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 4)

    def forward(self, tokens, mask):
        return self.fc(tokens) * mask.unsqueeze(-1)


model = Scorer().eval()
args = (torch.randn(3, 16), torch.ones(3))
batch = Dim("batch", min=1, max=64)
shapes = {"tokens": {0: batch}, "mask": {0: batch}}
torch.export.save(torch.export.export(model, args, dynamic_shapes=shapes), "scorer.pt2")

print("== from the .pt2, after torch.export.load ==")
ep = torch.export.load("scorer.pt2")
sig = ep.module_call_graph[0].signature
print("forward_arg_names:", sig.forward_arg_names)
print("user inputs in graph_signature:", ep.graph_signature.user_inputs)
where = {}  # symbol -> first place it appears, so symbols print as the dims they stand for
for node in ep.graph.find_nodes(op="placeholder"):
    if node.name in ep.graph_signature.user_inputs:
        val = node.meta["val"]
        dims = []
        for i, d in enumerate(val.shape):
            if isinstance(d, torch.SymInt):
                where.setdefault(d.node.expr, f"{node.name}.shape[{i}]")
                dims.append(where[d.node.expr])
            else:
                dims.append(d)
        print(f"  {node.name}: {val.dtype}, {val.device}, shape {dims}")
for sym, vr in ep.range_constraints.items():
    print(f"range_constraints: {where[sym]} in [{vr.lower}, {vr.upper}]")
with zipfile.ZipFile("scorer.pt2") as z:
    meta = json.loads(z.read("scorer/models/model.json"))
print("model.json: torch_version", meta["torch_version"], "| schema_version", meta["schema_version"])

print("== from the .onnx, with onnx.load ==")
torch.onnx.export(model, args, "scorer.onnx", dynamic_shapes=shapes, verbose=False)
m = onnx.load("scorer.onnx")
for inp in m.graph.input:
    t = inp.type.tensor_type
    dims = [d.dim_param or d.dim_value for d in t.shape.dim]
    print(f"  {inp.name}: {onnx.TensorProto.DataType.Name(t.elem_type)}, shape {dims}")
print("opset_import:", {o.domain: o.version for o in m.opset_import})
print("producer:", m.producer_name, m.producer_version)

print("== batch 100, outside the declared [1, 64] ==")
big = (torch.randn(100, 16), torch.ones(100))
sess = ort.InferenceSession("scorer.onnx", providers=["CPUExecutionProvider"])
print("ONNX Runtime:", sess.run(None, {"tokens": big[0].numpy(), "mask": big[1].numpy()})[0].shape)
try:
    ep.module()(*big)
except AssertionError as e:
    print("ep.module():", type(e).__name__ + ":", str(e).splitlines()[0])
