"""gpufilter: image filters on NVIDIA GPUs, from Python.

One function per op of the library's registry (blur, box, sharpen, edge, ..., stats,
histogram), each taking an image as a NumPy array, a PyTorch tensor, a CuPy array or any
array with __cuda_array_interface__ or __dlpack__, of shape (H, W) or (H, W, C) with
C = 1, 3 or 4 and dtype uint8, uint16 or float32:

    import gpufilter
    soft = gpufilter.blur(image, sigma=2.0)          # NumPy in, NumPy out
    gpufilter.blur(tensor, sigma=2.0, out=result)   # CUDA in place of your choice, no copy

CUDA arrays stay where they are: the op runs on their GPU, on the array library's current
stream (or stream=...), and returns without waiting. help(gpufilter.blur) shows an op's
parameters as `gpufilter blur --help` does. See docs/python.md.
"""
from . import _native, _ops, _registry, _suggest
from ._batch import batch
from ._files import read, write
from .errors import BatchInterrupted, Error, FileError, NoDeviceError

__version__ = _registry.VERSION

_functions = _ops.make_functions()
globals().update(_functions)

OPS = tuple(_functions)
"""The names of every op, in the registry's order."""

BORDERS = _registry.BORDERS
FORMATS = _registry.FORMATS


def device_count():
    """The number of usable CUDA devices (0 without a GPU or driver)."""
    return _native.lib.gpufilter_device_count()


def no_device_reason():
    """Why no GPU is usable, or "" when one is."""
    return _native.lib.gpufilter_no_device_reason().decode()


def device_description():
    """The current GPU, as "NVIDIA H100 ... (sm_90, 132 SMs, ...)"."""
    return _native.lib.gpufilter_device_description().decode()


def operation(name):
    """The registry's description of op `name` (params, variants, formats), as a dict."""
    for data in _registry.DATA["ops"]:
        if data["name"] == name:
            return data
    raise ValueError(_registry.unknown_op_message(name))


def __getattr__(name):
    # gpufilter.blurr: the nearest op's name in the AttributeError.
    raise AttributeError("module 'gpufilter' has no attribute '%s'%s" % (name, _suggest.did_you_mean(name, OPS)))


__all__ = list(OPS) + ["read", "write", "batch", "Error", "FileError", "NoDeviceError", "BatchInterrupted", "OPS",
                       "BORDERS", "FORMATS", "device_count", "no_device_reason", "device_description", "operation"]
