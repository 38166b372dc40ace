"""Arrays in and out: what an array is (pointer, shape, row pitch, dtype, device) read
from NumPy, PyTorch, CuPy, any __cuda_array_interface__ or __dlpack__ object, without
copying it; new arrays of the same library on the same device; and the stream to run on.
PyTorch and CuPy are only used when the caller passes their arrays (never imported here)."""
import sys

from . import _dlpack, _native

# typestr's kind and size -> channel type; NumPy-style names for messages
_CHANNEL_TYPES = {"u1": _native.U8, "u2": _native.U16, "f4": _native.F32}
_TYPESTRS = {_native.U8: "|u1", _native.U16: "<u2", _native.F32: "<f4"}
_ITEMSIZE = {_native.U8: 1, _native.U16: 2, _native.F32: 4}
DTYPE_NAMES = {_native.U8: "uint8", _native.U16: "uint16", _native.F32: "float32"}
_TORCH_TYPES = {"torch.uint8": _native.U8, "torch.uint16": _native.U16, "torch.float32": _native.F32}


class View:
    """An array as the C interface sees it, and where it came from."""
    __slots__ = ("obj", "family", "ptr", "shape", "strides", "ctype", "on_gpu", "device", "readonly",
                 "cai_stream", "keep", "channels")

    def __init__(self, obj, family, ptr, shape, strides, ctype, on_gpu, device, readonly=False, cai_stream=None,
                 keep=None):
        self.obj = obj
        self.family = family      # numpy, torch, cupy, cai, dlpack
        self.ptr = ptr
        self.shape = shape        # (H, W) or (H, W, C)
        self.strides = strides    # in bytes, as long as shape
        self.ctype = ctype        # _native.U8 / U16 / F32
        self.on_gpu = on_gpu
        self.device = device      # CUDA ordinal, or -1 for host memory
        self.readonly = readonly
        self.cai_stream = cai_stream  # __cuda_array_interface__'s stream, if it names one
        self.keep = keep          # what must stay alive while the pointer is used
        self.channels = shape[2] if len(shape) == 3 else 1

    def pitch_or_none(self):
        """The row pitch where the layout is rows of interleaved pixels, else None. A
        dimension of size 1 may have any stride (NumPy gives a new axis stride 0)."""
        item = _ITEMSIZE[self.ctype]
        height, width = self.shape[0], self.shape[1]
        if height == 0 or width == 0:
            return None
        channels = self.channels
        if len(self.shape) == 3 and channels > 1 and self.strides[2] != item:
            return None
        pixel = item * channels
        if width > 1 and self.strides[1] != pixel:
            return None
        pitch = self.strides[0]
        if height == 1 or pitch == 0:
            return pixel * width if height == 1 else None
        return pitch if pitch >= pixel * width else None

    def image(self, pitch):
        return _native.Image(self.ptr, self.shape[1], self.shape[0], pitch, self.ctype, self.channels)


def _shape_error(shape):
    return ValueError("an image is an array of shape (H, W) or (H, W, C) with C = 1, 3 or 4; got shape %s"
                      % (tuple(shape),))


# The byte order a typestr's first character names that is not this machine's.
_FOREIGN_ORDER = ">" if sys.byteorder == "little" else "<"
# The largest width or height: the C interface's int32_t.
MAX_SIDE = 2**31 - 1


def _ctype_of(typestr, what):
    ctype = _CHANNEL_TYPES.get(typestr[1:])
    if ctype is None:
        raise TypeError("gpufilter takes uint8, uint16 and float32 pixels (and float64, computed as float32); "
                        "%s has %s" % (what, typestr))
    if typestr[0] == _FOREIGN_ORDER and typestr[2] != "1":
        raise TypeError("%s has %s pixels, in the byte order of another machine; gpufilter reads them in this "
                        "machine's: convert with .astype(dtype.newbyteorder('='))" % (what, typestr))
    return ctype


def _checked_shape(shape):
    shape = tuple(shape)
    if len(shape) not in (2, 3) or (len(shape) == 3 and shape[2] not in (1, 3, 4)):
        raise _shape_error(shape)
    if shape[0] == 0 or shape[1] == 0:
        raise ValueError("an image needs at least one pixel; got an empty array of shape %s" % (shape,))
    if shape[0] > MAX_SIDE or shape[1] > MAX_SIDE:
        raise ValueError("an image is at most %d pixels wide and high; got shape %s" % (MAX_SIDE, shape))
    return shape


def _numpy_view(array):
    interface = array.__array_interface__
    ctype = _ctype_of(interface["typestr"], "the array")
    shape = _checked_shape(array.shape)
    return View(array, "numpy", interface["data"][0], shape, array.strides, ctype, False, -1,
                readonly=not array.flags.writeable)


def _torch_view(tensor):
    ctype = _TORCH_TYPES.get(str(tensor.dtype))
    if ctype is None:
        raise TypeError("gpufilter takes uint8, uint16 and float32 pixels; the tensor has %s" % tensor.dtype)
    shape = _checked_shape(tensor.shape)
    item = _ITEMSIZE[ctype]
    strides = tuple(s * item for s in tensor.stride())
    on_gpu = tensor.is_cuda
    if not on_gpu and tensor.device.type != "cpu":
        raise TypeError("gpufilter takes CPU and CUDA tensors; this one is on %s" % tensor.device)
    return View(tensor, "torch", tensor.data_ptr(), shape, strides, ctype, on_gpu,
                tensor.get_device() if on_gpu else -1, readonly=tensor.requires_grad)


def _cupy_view(array):
    ctype = _ctype_of(array.dtype.str, "the array")
    shape = _checked_shape(array.shape)
    return View(array, "cupy", array.data.ptr, shape, array.strides, ctype, True, array.device.id)


def _malformed(obj, what):
    return TypeError("%s's __cuda_array_interface__ is malformed: %s" % (type(obj).__name__, what))


def _integers(obj, value, what):
    if not isinstance(value, (tuple, list)) or not all(isinstance(n, int) and not isinstance(n, bool)
                                                       for n in value):
        raise _malformed(obj, "%s must be a tuple of integers, got %r" % (what, value))
    return tuple(value)


def _cai_fields(obj, interface):
    """typestr, shape, (pointer, read-only), strides or None, checked as the interface's
    specification (version 3) has them, so a malformed one is a TypeError of its own."""
    if not isinstance(interface, dict):
        raise _malformed(obj, "it is a %s, not a dict" % type(interface).__name__)
    for key in ("typestr", "shape", "data"):
        if key not in interface:
            raise _malformed(obj, "no '%s'" % key)
    typestr = interface["typestr"]
    if not isinstance(typestr, str) or len(typestr) < 3:
        raise _malformed(obj, "typestr must be a string such as '<f4', got %r" % (typestr,))
    shape = _integers(obj, interface["shape"], "shape")
    data = interface["data"]
    if not isinstance(data, (tuple, list)) or len(data) != 2 or not (data[0] is None or isinstance(data[0], int)):
        raise _malformed(obj, "data must be (pointer, read_only), got %r" % (data,))
    strides = interface.get("strides")
    if strides is not None:
        strides = _integers(obj, strides, "strides")
        if len(strides) != len(shape):
            raise _malformed(obj, "strides %s and shape %s differ in length" % (strides, shape))
    return typestr, shape, data, strides


def _cai_view(obj, interface):
    typestr, shape, (ptr, readonly), strides = _cai_fields(obj, interface)
    ctype = _ctype_of(typestr, "the array")
    shape = _checked_shape(shape)
    if strides is None:
        strides = _contiguous_strides(shape, _ITEMSIZE[ctype])
    device = _native.pointer_device(ptr) if ptr else 0
    return View(obj, "cai", ptr or 0, shape, tuple(strides), ctype, True, device, readonly=bool(readonly),
                cai_stream=interface.get("stream"))


def _dlpack_view(obj, stream):
    device_type, device_id = obj.__dlpack_device__()
    on_gpu = device_type in (_dlpack.KDL_CUDA, _dlpack.KDL_CUDA_MANAGED)
    if on_gpu:
        # DLPack's stream numbers: 1 is CUDA's legacy default stream, not 0.
        capsule = obj.__dlpack__(stream=stream or 1)
    else:
        capsule = obj.__dlpack__()
    ptr, _, _, typestr, shape, strides = _dlpack.describe(capsule)
    ctype = _ctype_of(typestr, "the array")
    shape = tuple(int(n) for n in _checked_shape(shape))
    if strides is None:
        strides = _contiguous_strides(shape, _ITEMSIZE[ctype])
    return View(obj, "dlpack", ptr, shape, strides, ctype, on_gpu, device_id if on_gpu else -1, keep=capsule)


def _contiguous_strides(shape, item):
    strides = []
    step = item
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return tuple(reversed(strides))


def view_of(obj, numpy, stream_for_dlpack=None, native=True):
    """The View of any supported array; TypeError for anything else. A NumPy array in
    the other byte order is read through a copy in this machine's where `native` (an
    input), refused where not (an out= gpufilter would write in the wrong order)."""
    if isinstance(obj, numpy.ndarray):
        if native and not obj.dtype.isnative:
            obj = obj.astype(obj.dtype.newbyteorder("="))
        return _numpy_view(obj)
    module = type(obj).__module__
    if module.startswith("torch"):
        return _torch_view(obj)
    if module.startswith("cupy"):
        return _cupy_view(obj)
    interface = getattr(obj, "__cuda_array_interface__", None)
    if interface is not None:
        return _cai_view(obj, interface)
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        return _dlpack_view(obj, stream_for_dlpack)
    if hasattr(obj, "__array_interface__"):
        return view_of(numpy.asarray(obj), numpy, None, native)
    raise TypeError("gpufilter takes NumPy arrays, PyTorch tensors, CuPy arrays and any array with "
                    "__cuda_array_interface__ or __dlpack__; got %s" % type(obj).__name__)


def compact(view, numpy):
    """A copy of `view`'s array in rows of interleaved pixels, by its own library on its
    own device (for a transposed or channel-sliced view, or negative strides)."""
    obj = view.obj
    if view.family == "numpy":
        return _numpy_view(numpy.ascontiguousarray(obj))
    if view.family == "torch":
        return _torch_view(obj.contiguous())
    if view.family == "cupy":
        return _cupy_view(sys.modules["cupy"].ascontiguousarray(obj))
    raise ValueError("this array's strides %s are not rows of interleaved pixels, and gpufilter cannot copy "
                     "a %s array; pass a contiguous one" % (view.strides, type(obj).__name__))


def new_like(view, shape, ctype, numpy):
    """A new array of `shape` and channel type, of view's library, on view's device."""
    dtype = DTYPE_NAMES[ctype]
    obj = view.obj
    if view.family == "numpy" or (view.family == "dlpack" and not view.on_gpu):
        return numpy.empty(shape, dtype=dtype)
    if view.family == "torch":
        torch = sys.modules["torch"]
        return torch.empty(shape, dtype=getattr(torch, dtype), device=obj.device)
    if view.family == "cupy":
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(view.device):
            return cupy.empty(shape, dtype=dtype)
    namespace = getattr(obj, "__array_namespace__", None)
    if namespace is not None:
        xp = namespace()
        return xp.empty(shape, dtype=getattr(xp, dtype), device=getattr(obj, "device", None))
    raise TypeError("gpufilter cannot make a new %s array; pass out=" % type(obj).__name__)


def stream_handle(stream):
    """A stream as its cudaStream_t (an int): a torch.cuda.Stream, a cupy.cuda.Stream, an
    object with a `handle`, or an int; None stays None."""
    if stream is None:
        return None
    for attribute in ("cuda_stream", "ptr", "handle"):
        handle = getattr(stream, attribute, None)
        if handle is not None:
            return int(handle)
    return int(stream)


def stream_of(view, stream):
    """The cudaStream_t (as an int) to run `view`'s work on: `stream` where given, else the
    array library's current stream on the array's device."""
    if stream is not None:
        return stream_handle(stream)
    if view.family == "torch":
        torch_c = sys.modules["torch"]._C
        raw = getattr(torch_c, "_cuda_getCurrentRawStream", None)
        if raw is not None:
            return raw(view.device)
        return sys.modules["torch"].cuda.current_stream(view.device).cuda_stream
    if view.family == "cupy":
        cuda = sys.modules["cupy"].cuda
        with cuda.Device(view.device):
            return cuda.get_current_stream().ptr
    return 0


def join_current_stream(view, handle, made):
    """For a call on an explicit stream other than the library's current one: that stream
    first waits for the current stream's work (the input written, a compact copy, the
    allocation of `made`, arrays gpufilter created), and PyTorch's allocator learns that
    `made` is used on it, so their memory is not reused before the op is done."""
    if view.family == "torch":
        torch = sys.modules["torch"]
        current = torch.cuda.current_stream(view.device)
        if current.cuda_stream == handle:
            return
        theirs = torch.cuda.ExternalStream(handle, device=view.obj.device)
        theirs.wait_stream(current)
        for array in made:
            array.record_stream(theirs)
    elif view.family == "cupy":
        cuda = sys.modules["cupy"].cuda
        with cuda.Device(view.device):
            current = cuda.get_current_stream()
            if current.ptr == handle:
                return
            cuda.ExternalStream(handle).wait_event(current.record())


def _dtype_name(obj):
    """The dtype's name ("float64"), alike for NumPy, CuPy and PyTorch arrays and for
    either byte order (NumPy's str() of a big-endian dtype is ">f8", its name "float64")."""
    dtype = getattr(obj, "dtype", None)
    return str(getattr(dtype, "name", dtype)).replace("torch.", "")


def is_float64(obj):
    return _dtype_name(obj) == "float64"


def is_float32(obj):
    return _dtype_name(obj) == "float32"


def cast(obj, dtype):
    """`obj` converted to `dtype` ("float32") by its own library, on its own device."""
    if type(obj).__module__.startswith("torch"):
        return obj.to(getattr(sys.modules["torch"], dtype))
    if hasattr(obj, "astype"):
        return obj.astype(dtype)
    raise TypeError("gpufilter cannot convert a %s array of %s; pass float32 pixels"
                    % (type(obj).__name__, _dtype_name(obj)))


def assign(out, value):
    """Copies `value` into the array `out` (same shape) and returns `out`."""
    if tuple(out.shape) != tuple(value.shape):
        raise ValueError("out has shape %s; the result has %s" % (tuple(out.shape), tuple(value.shape)))
    if type(out).__module__.startswith("torch"):
        out.copy_(value)
    else:
        out[...] = value
    return out
