"""Stacks of images, arrays of shape (N, H, W, C): each image runs as an image of its
own (on a CUDA array, one after the other on the same stream), and the results come
back as a stack of the input's kind."""
import sys


def _ndim(obj):
    ndim = getattr(obj, "ndim", None)
    if ndim is None:
        shape = getattr(obj, "shape", None)
        if shape is None:
            interface = getattr(obj, "__cuda_array_interface__", None)
            shape = interface.get("shape") if isinstance(interface, dict) else None
        try:
            ndim = len(shape)
        except TypeError:  # no shape, or a malformed one (said where the array is read)
            ndim = None
    return ndim


def is_stack(obj):
    return _ndim(obj) == 4 and hasattr(obj, "__getitem__")


def _stack(results):
    first = results[0]
    module = type(first).__module__
    if module.startswith("torch"):
        return sys.modules["torch"].stack(results)
    if module.startswith("cupy"):
        return sys.modules["cupy"].stack(results)
    namespace = getattr(first, "__array_namespace__", None)
    if namespace is not None and not module.startswith("numpy"):
        return namespace().stack(results)
    import numpy
    return numpy.stack(results)


def run(call, images, out, gives_image):
    """call(image, out) over each image of the stack `images`: a stack of the results
    (into `out` where given), or a list of the data ops' dicts."""
    count = len(images)
    if count == 0:
        raise ValueError("an empty stack of images (shape %s): nothing to run on" % (tuple(images.shape),))
    if out is not None and (not gives_image or len(out) != count):
        raise ValueError("out must be a stack of %d images, as the input" % count)
    results = [call(images[i], None if out is None else out[i]) for i in range(count)]
    if not gives_image:
        return results
    return out if out is not None else _stack(results)
