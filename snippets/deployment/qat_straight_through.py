import torch

x = torch.tensor([-2.0, 0.303, 0.707, 5.0], requires_grad=True)

torch.round(x / 0.01).sum().backward()  # plain rounding: a step function
print("grad through torch.round:      ", x.grad.tolist())

x.grad = None
# int8 fake quantization with scale 0.01: representable range [-1.28, 1.27]
y = torch.fake_quantize_per_tensor_affine(x, scale=0.01, zero_point=0, quant_min=-128, quant_max=127)
y.sum().backward()
print("fake-quantized forward values: ", [round(v, 2) for v in y.tolist()])
print("grad through fake_quantize:    ", x.grad.tolist())
