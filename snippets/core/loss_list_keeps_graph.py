import torch

torch.manual_seed(0)

model = torch.nn.Linear(1000, 1000)
x = torch.randn(64, 1000)

kept_losses, kept_numbers = [], []
for _ in range(3):
    loss = model(x).pow(2).mean()  # no backward: e.g. an evaluation step without no_grad
    kept_losses.append(loss)        # keeps the tensor, its grad_fn and what the graph saved
    kept_numbers.append(loss.item())  # a Python float: keeps nothing

pow_node = kept_losses[0].grad_fn.next_functions[0][0]
print("kept loss has grad_fn:", type(kept_losses[0].grad_fn).__name__)
print("its", type(pow_node).__name__, "still holds a saved tensor of shape",
      tuple(pow_node._saved_self.shape))
print("kept numbers:", type(kept_numbers[0]).__name__)
