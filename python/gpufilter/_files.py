"""Image files through gpufilter_io, the command-line tool's own reading and writing
(its codecs, atomic writes). Errors are Python's own for files: FileNotFoundError,
FileExistsError."""
import ctypes
import errno
import os

import numpy

from . import _arrays, _native
from ._native import lib
from ._paths import checked_path


def _missing(path):
    return FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), os.fsdecode(path))


def read(path, *, autorotate=True):
    """The image file at `path` as a NumPy array (H, W) or (H, W, C) in R, G, B(, A) order,
    its depth kept (uint8, uint16, float32). A JPEG is turned upright by its EXIF
    orientation unless autorotate=False. Raises FileNotFoundError for a missing file,
    gpufilter.FileError for one that is not an image."""
    encoded = checked_path(path)
    handle = ctypes.c_void_p()
    view = _native.Image()
    status = lib.gpufilter_file_read(encoded, 1 if autorotate else 0, ctypes.byref(handle), view)
    if status != _native.OK:
        if status == _native.IO_INPUT and not os.path.lexists(encoded):
            raise _missing(path)
        _native.raise_for(status)
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
    none. Raises FileExistsError for an existing file (without replace=True),
    FileNotFoundError for a missing folder, ValueError for what cannot be asked,
    gpufilter.FileError for files that cannot be written."""
    encoded = checked_path(path)
    if not replace and os.path.lexists(encoded):
        raise FileExistsError(errno.EEXIST, "the file exists; pass replace=True to replace it", os.fsdecode(encoded))
    if _arrays.is_float64(image):  # written as float32, the depth the formats hold
        image = _arrays.cast(image, "float32")
    view = _arrays.view_of(image, numpy)
    if view.pitch_or_none() is None:
        view = _arrays.compact(view, numpy)
    if view.on_gpu:
        host_view = _arrays.view_of(numpy.empty(view.shape, _arrays.DTYPE_NAMES[view.ctype]), numpy)
        _native.check(lib.gpufilter_copy(view.image(view.pitch_or_none()), host_view.image(host_view.pitch_or_none()),
                                         view.device, None, 1))
        view = host_view
    status = lib.gpufilter_file_write(encoded, view.image(view.pitch_or_none()), int(quality),
                                      -1 if png_compression is None else int(png_compression), 1 if replace else 0)
    if status != _native.OK:
        folder = os.path.dirname(encoded)
        if status == _native.IO_OUTPUT and folder and not os.path.isdir(folder):
            raise _missing(folder)
        _native.raise_for(status)
