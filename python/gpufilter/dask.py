"""gpufilter over Dask arrays: an image larger than memory, or one spread over a cluster,
filtered chunk by chunk with the same result as the whole image at once.

    import dask.array as da
    import gpufilter.dask
    image = da.from_zarr("scan.zarr")                 # (H, W) or (H, W, C), chunked
    soft = gpufilter.dask.filter_array(image, "blur", sigma=4.0)
    soft.to_zarr("soft.zarr")

Each chunk runs with as much of its neighbours around it as the op reads (its reach:
blur's radius, ceil(3 * sigma) by default; half a box or median window), through
`dask.array.map_overlap` with boundary='none': at the image's own edges a chunk is not
padded by Dask but runs with the op's border (reflect101 unless `border` says otherwise),
exactly as the whole image does (border='wrap' takes Dask's 'periodic', the far side).
Dask's own boundary='reflect' is numpy.pad's 'symmetric', which repeats the edge pixel,
and gives other values there.

Chunks run where Dask puts them, each through the op's function (gpufilter.blur, ...): on
the worker's GPU when it has one (with one worker per GPU, as dask-cuda's workers are
started, each worker sees its own), on its CPU otherwise or with device="cpu". The
channel axis is kept in one chunk. Dask (python3-dask) is needed only here, and imported
by this module.
"""
import ctypes
import difflib

import dask.array
import numpy

import gpufilter
from . import _ops, _registry
from ._native import lib

__all__ = ["filter_array", "reach"]


def _op_named(name):
    for op in _registry.OPS:
        if op.name == name:
            return op
    known = [op.name for op in _registry.OPS]
    close = difflib.get_close_matches(str(name), known, n=3)
    hint = "; did you mean %s?" % " or ".join("'%s'" % c for c in close) if close else \
        "; known ops: " + ", ".join(known)
    raise ValueError("unknown op '%s'%s" % (name, hint))


def _values(op, params):
    """The op's parameter values in registry order from keyword arguments."""
    known = {p.py_name for p in op.params}
    for name in params:
        if name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=1)
            hint = "; did you mean '%s'?" % close[0] if close else ""
            raise TypeError("%s() got an unexpected keyword argument '%s'%s" % (op.name, name, hint))
    return tuple(params.get(p.py_name) for p in op.params)


def reach(op, border=None, border_value=None, variant=None, **params):
    """How far from an output pixel, as (y, x), lie the input pixels it depends on, for op
    `op` (a name) with these parameters: the depth filter_array gives map_overlap. Raises
    ValueError for an op without such a bound (equalize: each pixel depends on the whole
    image; geometry ops)."""
    spec = _op_named(op)
    request = _ops.caller_of(spec).request(_values(spec, params), border, border_value, variant)
    x, y = ctypes.c_int(), ctypes.c_int()
    status = lib.gpufilter_request_reach(request.handle, ctypes.byref(x), ctypes.byref(y))
    if status != 0:
        raise ValueError(lib.gpufilter_last_error().decode())
    return y.value, x.value


def _run_block(block, function, keywords):
    # The library reads a block of any layout; a result of another rank than the block
    # (an (H, W) block as (H, W, 1)) is given the block's shape back.
    result = function(numpy.ascontiguousarray(block), **keywords)
    return result.reshape(block.shape) if result.shape != block.shape else result


def filter_array(image, op, *, border=None, border_value=None, variant=None, device="auto", **params):
    """Runs image op `op` (a name: "blur", "median", "invert", ...) with keyword
    parameters `params` (as gpufilter.blur takes them) over a dask.array of shape (H, W) or
    (H, W, C), C = 1, 3 or 4, dtype uint8, uint16 or float32, and returns a lazy
    dask.array of the same shape, dtype and chunks. Equal to the op on the whole image
    (for blur with accuracy='fast' the approximating kernels, whose reach is wider, are
    not taken by chunk). Raises ValueError for an op that changes the image's shape or
    that has no bounded reach (stats, equalize, resize, ...): run those on whole images."""
    spec = _op_named(op)
    if not spec.gives_image or not spec.keeps_shape:
        raise ValueError("%s cannot run chunk by chunk: it %s" % (
            op, "gives data, not an image" if not spec.gives_image else "changes the image's shape"))
    if not isinstance(image, dask.array.Array):
        image = dask.array.from_array(image)
    if image.ndim not in (2, 3):
        raise ValueError("filter_array takes an image of shape (H, W) or (H, W, C), got shape %s" % (image.shape,))
    reach_y, reach_x = reach(op, border=border, border_value=border_value, variant=variant, **params)
    keywords = dict(params, variant=variant, device=device)
    if spec.uses_border:
        keywords.update(border=border if border is not None else _registry.DEFAULT_BORDER, border_value=border_value)
    if keywords["variant"] is None:
        del keywords["variant"]
    function = getattr(gpufilter, op)
    depth = {0: reach_y, 1: reach_x}
    if image.ndim == 3:
        depth[2] = 0
        image = image.rechunk({2: -1})
    # A chunk at least as large as the reach on each side, so that a chunk's neighbours
    # hold all it needs (map_overlap takes the margin from the next chunk only); an axis
    # in one chunk needs no margin at all.
    image = image.rechunk({axis: tuple(_at_least(image.chunks[axis], depth[axis])) for axis in (0, 1)})
    for axis in (0, 1):
        if len(image.chunks[axis]) == 1:
            depth[axis] = 0
    # At the image's edges a chunk runs with the op's border, which reads only pixels near
    # that edge, all in the chunk; but a wrapping border reads the far side of the image,
    # which Dask's 'periodic' boundary brings in.
    boundary = "periodic" if keywords.get("border") == "wrap" else "none"
    return dask.array.map_overlap(_run_block, image, depth=depth, boundary=boundary, trim=True,
                                  dtype=image.dtype, meta=numpy.empty((0,) * image.ndim, dtype=image.dtype),
                                  function=function, keywords=keywords)


def _at_least(chunks, size):
    """`chunks` with each chunk smaller than `size` merged into its neighbour."""
    merged = []
    for chunk in chunks:
        if merged and (merged[-1] < size or chunk < size):
            merged[-1] += chunk
        else:
            merged.append(chunk)
    return merged
