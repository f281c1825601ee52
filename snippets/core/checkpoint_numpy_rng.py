#| expect: pickle.UnpicklingError
import io
import pickle

import numpy as np
import torch
from numpy._core.multiarray import _reconstruct

np.random.seed(0)
buf = io.BytesIO()
torch.save({"step": 3, "torch_rng": torch.get_rng_state(), "numpy_rng": np.random.get_state()}, buf)
ckpt = buf.getvalue()
expected = np.random.rand(3)  # what the resumed run must draw next


def load(data, **kwargs):
    return torch.load(io.BytesIO(data), **kwargs)


print("get_unsafe_globals_in_checkpoint:",
      sorted(torch.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(ckpt))))
try:
    with torch.serialization.safe_globals([_reconstruct, np.ndarray, np.dtype]):
        load(ckpt)
except pickle.UnpicklingError as e:  # the dtype class is made while unpickling: the static scan missed it
    print("those three allowed:", type(e).__name__, next(s for s in str(e).splitlines() if "Can only" in s))

uint32_dtype = type(np.dtype(np.uint32))  # numpy.dtypes.UInt32DType
with torch.serialization.safe_globals([_reconstruct, np.ndarray, np.dtype, uint32_dtype]):
    np.random.set_state(load(ckpt)["numpy_rng"])
print("four allowed, resumed draws match:", np.array_equal(np.random.rand(3), expected))

np.random.set_state(load(ckpt, weights_only=False)["numpy_rng"])  # runs any pickle: trusted files only
print("weights_only=False, resumed draws match:", np.array_equal(np.random.rand(3), expected))

# Or keep NumPy objects out of the file: the keys as a list of ints load by default.
np.random.seed(0)
name, keys, *rest = np.random.get_state()
buf = io.BytesIO()
torch.save({"numpy_rng": (name, keys.tolist(), *rest)}, buf)
np.random.set_state(load(buf.getvalue())["numpy_rng"])
print("keys saved as a list, default load, draws match:", np.array_equal(np.random.rand(3), expected))

load(ckpt)  # the NumPy state, default weights_only=True
