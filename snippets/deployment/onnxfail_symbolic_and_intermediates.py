#| devices: cpu
import logging
import warnings

import torch
import torch.onnx.verification

torch.manual_seed(0)

logging.getLogger("torch.onnx").setLevel(logging.ERROR)  # "torchvision is not installed" notices
warnings.filterwarnings("ignore", category=FutureWarning)  # an internal pytree notice


class SoftClipNet(torch.nn.Module):
    def forward(self, x):
        y = torch.relu(x) * 2
        if torch.onnx.is_in_onnx_export():  # in the ONNX graph: one node of a custom domain
            return torch.onnx.ops.symbolic(
                "custom.domain::SoftClip", [y], {"limit": 3.0}, dtype=y.dtype, shape=y.shape, version=1)
        return 3.0 * torch.tanh(y / 3.0)


onnx_program = torch.onnx.export(SoftClipNet().eval(), (torch.randn(2, 4),), verbose=False)
for node in onnx_program.model.graph:
    attrs = {k: v.value for k, v in node.attributes.items()}
    print(f"node {node.domain or 'ai.onnx'}::{node.op_type} {attrs or ''}")
print("opset imports:", dict(onnx_program.model.opset_imports))


class Net(torch.nn.Module):
    def forward(self, x):
        return torch.sigmoid(torch.relu(x) * 2).sum(-1)


onnx_program = torch.onnx.export(Net().eval(), (torch.randn(2, 4),), verbose=False)
infos = torch.onnx.verification.verify_onnx_program(onnx_program, compare_intermediates=True)
print("compare_intermediates: one result per value:",
      [(info.name, bool(info.max_abs_diff < 1e-6)) for info in infos])
