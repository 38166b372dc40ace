"""Image files and batches through gpufilter_io, the command-line tool's own reading,
writing and batch pipeline (decoding threads, nvJPEG, several GPUs)."""
import ctypes
import json
import os

import numpy

from . import _arrays, _native, _ops, _registry
from ._native import lib

_DEVICE_CODES = {"auto": 0, "gpu": 1, "cpu": 2}


def _path(path):
    return os.fsencode(os.fspath(path))


def read(path, *, autorotate=True):
    """The image file at `path` as a NumPy array (H, W) or (H, W, C) in R, G, B(, A) order,
    its depth kept (uint8, uint16, float32). A JPEG is turned upright by its EXIF
    orientation unless autorotate=False. Raises gpufilter.FileError."""
    handle = ctypes.c_void_p()
    view = _native.Image()
    _native.check(lib.gpufilter_file_read(_path(path), 1 if autorotate else 0, ctypes.byref(handle), view))
    try:
        dtype = numpy.dtype(_arrays.DTYPE_NAMES[view.type])
        shape = (view.height, view.width) if view.channels == 1 else (view.height, view.width, view.channels)
        row = view.width * view.channels * dtype.itemsize
        buffer = (ctypes.c_char * (view.pitch * (view.height - 1) + row)).from_address(view.data)
        strides = (view.pitch, view.channels * dtype.itemsize, dtype.itemsize)[:len(shape)]
        return numpy.array(numpy.ndarray(shape, dtype, buffer, 0, strides), copy=True)
    finally:
        lib.gpufilter_file_image_free(handle)


def write(path, image, *, quality=95, png_compression=None, replace=False):
    """Writes `image` (any array gpufilter takes; R, G, B(, A) order) to `path`, whose suffix
    names the format, as the command-line tool writes OUT: whole or not at all, an existing
    file replaced only with replace=True, alpha composited onto white where the format has
    none. Raises ValueError for what cannot be asked, gpufilter.FileError for files."""
    view = _arrays.view_of(image, numpy)
    if view.pitch_or_none() is None:
        view = _arrays.compact(view, numpy)
    if view.on_gpu:
        host_view = _arrays.view_of(numpy.empty(view.shape, _arrays.DTYPE_NAMES[view.ctype]), numpy)
        _native.check(lib.gpufilter_copy(view.image(view.pitch_or_none()), host_view.image(host_view.pitch_or_none()),
                                         view.device, None, 1))
        view = host_view
    _native.check(lib.gpufilter_file_write(_path(path), view.image(view.pitch_or_none()), int(quality),
                                           -1 if png_compression is None else int(png_compression),
                                           1 if replace else 0))


def batch(op, inputs, out_dir, *, suffix="", format=None, device="auto", devices=None, jobs=0, shard=None,
          quality=95, replace=False, border=None, border_value=None, variant=None, **params):
    """Runs image op `op` (a name, "blur") over image files as `gpufilter OP IN... --out-dir
    DIR` does, on the same pipeline: each input becomes out_dir/<name><suffix><ext> (ext:
    `format`, "jpg", or the input's own). `params` are the op's (sigma=2.0, ...);
    `devices` a list of GPU ordinals or "all"; `shard` (I, N) keeps inputs I, I+N, ...
    Returns one dict per input kept: {"input", "output", "ok", "error"}. A file that
    fails is reported there and the others go on."""
    found = [o for o in _registry.OPS if o.name == op]
    if not found:
        raise ValueError("unknown op '%s'; known ops: %s" % (op, ", ".join(o.name for o in _registry.OPS)))
    caller = _ops.caller_of(found[0])
    known = {p.py_name for p in caller.op.params}
    for name in params:
        if name not in known:
            raise TypeError("%s() got an unexpected keyword argument '%s'" % (op, name))
    values = tuple(params.get(p.py_name) for p in caller.op.params)
    request = caller.request(values, border, border_value, variant)
    if device not in _DEVICE_CODES:
        raise ValueError("unknown device %r; use auto, gpu or cpu" % (device,))
    paths = [_path(p) for p in ([inputs] if isinstance(inputs, (str, bytes, os.PathLike)) else inputs)]
    if devices == "all":
        device_list, device_count = [], -1
    else:
        device_list = [int(d) for d in (devices or [])]
        device_count = len(device_list)
    shard_index, shard_count = shard if shard is not None else (0, 1)
    text = ctypes.c_char_p()
    _native.check(lib.gpufilter_batch(
        request.handle, len(paths), (ctypes.c_char_p * max(1, len(paths)))(*paths), _path(out_dir),
        suffix.encode(), format.encode() if format else None, _DEVICE_CODES[device], device_count,
        (ctypes.c_int * max(1, len(device_list)))(*device_list), int(jobs), int(shard_index), int(shard_count),
        int(quality), 1 if replace else 0, ctypes.byref(text)))
    return json.loads(text.value.decode("utf-8", "surrogateescape"))["files"]
