#| expect: pickle.UnpicklingError
import dataclasses
import io

import torch

torch.manual_seed(0)


@dataclasses.dataclass
class TrainConfig:
    lr: float
    epochs: int


model = torch.nn.Linear(2, 1)
buf = io.BytesIO()
torch.save({"model": model.state_dict(), "step": 10, "lr": 0.1, "tags": ["a", "b"]}, buf)
buf.seek(0)
print("tensors, ints, floats, str, lists, dicts load:", sorted(torch.load(buf)))

buf = io.BytesIO()
torch.save(model, buf)  # the whole module, pickled
buf.seek(0)
print("torch.save(model) needs:", torch.serialization.get_unsafe_globals_in_checkpoint(buf))

buf = io.BytesIO()
torch.save({"model": model.state_dict(), "config": TrainConfig(lr=0.1, epochs=3)}, buf)
buf.seek(0)
print("globals this file needs:", torch.serialization.get_unsafe_globals_in_checkpoint(buf))
buf.seek(0)
with torch.serialization.safe_globals([TrainConfig]):
    print("with safe_globals([TrainConfig]):", torch.load(buf)["config"])
buf.seek(0)
torch.serialization.add_safe_globals([TrainConfig])  # process-wide, until the process ends
print("after add_safe_globals:", torch.load(buf)["config"])
torch.serialization.clear_safe_globals()
buf.seek(0)
torch.load(buf)  # weights_only=True is the default: a custom class is refused
