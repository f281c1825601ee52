#| devices: cpu
import torch
from functorch.compile import default_partition, make_boxed_func
from torch._functorch.aot_autograd import aot_module_simplified

torch.manual_seed(0)


def ops(gm):
    return [str(n.target).replace("aten.", "").replace(".default", "")
            for n in gm.graph.nodes if n.op == "call_function"]


def names(gm, op):
    return [n.name for n in gm.graph.find_nodes(op=op)] if op == "placeholder" else \
        [str(a) for a in gm.graph.output_node().args[0]]


def printing_partition(joint, joint_inputs, *, num_fwd_outputs, **kwargs):
    print("joint graph inputs: ", [f"{n.name}{list(n.meta['val'].shape)}"
                                   for n in joint.graph.find_nodes(op="placeholder")])
    print("joint graph ops:    ", ops(joint))
    return default_partition(joint, joint_inputs, num_fwd_outputs=num_fwd_outputs, **kwargs)


def fw_compiler(gm, example_inputs):
    print("forward graph ops:  ", ops(gm))
    print("forward outputs:    ", names(gm, "output"))
    return make_boxed_func(gm.forward)


def bw_compiler(gm, example_inputs):
    print("backward inputs:    ", names(gm, "placeholder"))
    print("backward ops:       ", ops(gm))
    print("backward outputs:   ", names(gm, "output"))
    return make_boxed_func(gm.forward)


def aot_printing_backend(gm, example_inputs):
    return aot_module_simplified(gm, example_inputs, fw_compiler=fw_compiler,
                                 bw_compiler=bw_compiler, partition_fn=printing_partition)


model = torch.nn.Linear(4, 3)
x = torch.randn(2, 4)


def step(x):
    return torch.sin(model(x)).sum()


compiled = torch.compile(step, backend=aot_printing_backend)
loss = compiled(x)
print("-- forward ran; calling backward --")
loss.backward()
grad = model.weight.grad.clone()
model.zero_grad()
step(x).backward()
print("weight.grad matches eager:", torch.allclose(grad, model.weight.grad))

print("-- the same function under torch.no_grad() --")
with torch.no_grad():
    compiled(x)  # grad mode is guarded: this recompiles, and AOTAutograd traces no backward
