#| devices: cpu
#| expect: ValueError
import torch

torch.manual_seed(0)

model = torch.nn.Linear(4, 2)
# At construction, SGD accepts a tensor lr with foreach=True; Adam does only with capturable=True.
torch.optim.SGD(model.parameters(), lr=torch.tensor(0.01), foreach=True)
print("SGD, tensor lr, foreach=True: accepted")
torch.optim.Adam(model.parameters(), lr=torch.tensor(0.01), capturable=True, foreach=True)
print("Adam, tensor lr, foreach=True, capturable=True: accepted")
torch.optim.Adam(model.parameters(), lr=torch.tensor(0.01), foreach=True)
