import warnings

import torch

warnings.filterwarnings("ignore", message=".*LeafSpec")  # internal FutureWarning in 2.13


def show(ep, title):
    print(title)
    ops = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
    print("  ops:    ", [op for op in ops if "getitem" not in op])
    for spec in ep.graph_signature.output_specs:
        print("  output: ", spec.kind.name, spec.target or "-")


bn = torch.nn.BatchNorm1d(2)
x = torch.tensor([[1.0, 10.0], [3.0, 30.0]])

ep_train = torch.export.export(bn, (x,))  # bn is in training mode
show(ep_train, "train mode, training IR")
schema = torch.ops.aten.batch_norm.default._schema
print("  aten.batch_norm schema declares a mutation:", schema.is_mutable)
show(ep_train.run_decompositions(), "train mode, after run_decompositions()")

m = ep_train.module()
m(x)
print("running_mean in ep.module():    ", m.running_mean)
print("running_mean in the original bn:", bn.running_mean)
print("same tensor object:", m.running_mean is bn.running_mean)
print("ep.state_dict holds it too:", ep_train.state_dict["running_mean"] is bn.running_mean)

bn.eval()
show(torch.export.export(bn, (x,)).run_decompositions(), "eval mode, after run_decompositions()")
