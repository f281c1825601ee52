#| devices: cpu
import logging
import os
import warnings

import onnx
import onnxruntime as ort
import torch

torch.manual_seed(0)

logging.getLogger("torch.onnx").setLevel(logging.ERROR)  # "torchvision is not installed" notices
warnings.filterwarnings("ignore", category=FutureWarning)  # an internal pytree notice

model = torch.nn.Linear(8, 4).eval()
onnx_program = torch.onnx.export(model, (torch.randn(3, 8),), verbose=False)  # no dynamic_shapes
print("input shape in the ONNX graph:", list(onnx_program.model.graph.inputs[0].shape))

onnx_program.save("linear.onnx")
sess = ort.InferenceSession("linear.onnx", providers=["CPUExecutionProvider"])
name = sess.get_inputs()[0].name
print("batch 3:", sess.run(None, {name: torch.randn(3, 8).numpy()})[0].shape)
try:
    sess.run(None, {name: torch.randn(5, 8).numpy()})
except Exception as e:  # onnxruntime raises its own InvalidArgument class
    print("batch 5:", type(e).__name__ + ":", str(e))

# Where the weights go: export(..., f) defaults to external_data=True, ONNXProgram.save() does not.
wide = torch.nn.Linear(64, 8).eval()  # weight 2048 bytes, bias 32 bytes
torch.onnx.export(wide, (torch.randn(3, 64),), "with_f.onnx", verbose=False)
torch.onnx.export(wide, (torch.randn(3, 64),), verbose=False).save("saved.onnx")
print("files written:", sorted(f for f in os.listdir() if f.startswith(("with_f", "saved"))))
for path in ("with_f.onnx", "saved.onnx"):
    inits = onnx.load(path, load_external_data=False).graph.initializer
    external = [t.name for t in inits if t.data_location == onnx.TensorProto.EXTERNAL]
    print(f"{path}: initializers in the external file: {external}")
