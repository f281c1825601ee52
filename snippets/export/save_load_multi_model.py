#| devices: cpu
import torch
from torch.export.pt2_archive._package import load_pt2, package_pt2


class AddOne(torch.nn.Module):
    def forward(self, x):
        return x + 1


ep = torch.export.export(AddOne(), (torch.ones(2),))
package_pt2("two.pt2", exported_programs={"encoder": ep, "decoder": ep})

try:
    torch.export.load("two.pt2")  # looks for the one program that save() names "model"
except KeyError as e:
    print("torch.export.load: KeyError", e)
print("load_pt2 finds:", sorted(load_pt2("two.pt2").exported_programs))
