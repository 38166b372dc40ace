"""Loads libgpufilter_c (the C interface, capi/include/gpufilter_c.h) through ctypes and
declares its functions. Failures come back as exceptions through check()."""
import ctypes
import errno
import os

from .errors import Error, FileError, NoDeviceError

ABI_VERSION = 1

# gpufilter_status
OK = 0
INVALID_ARGUMENT = 1
UNSUPPORTED_FORMAT = 2
NO_DEVICE = 3
OUT_OF_MEMORY = 4
CUDA = 5
IO_REQUEST = 6
IO_INPUT = 7
IO_OUTPUT = 8
IO_RUNTIME = 9
INTERNAL = 10

# gpufilter_where
CPU = 0
GPU = 1
HOST_VIA_GPU = 2

# gpufilter_channel_type
U8, U16, F32 = 0, 1, 2


class Image(ctypes.Structure):
    """gpufilter_image: a view of pixels (pointer, size, row pitch in bytes, format)."""
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("width", ctypes.c_int32),
        ("height", ctypes.c_int32),
        ("pitch", ctypes.c_size_t),
        ("type", ctypes.c_int32),
        ("channels", ctypes.c_int32),
    ]


class Request(ctypes.Structure):
    """Opaque gpufilter_request."""


RequestPointer = ctypes.POINTER(Request)
_c_str_p = ctypes.c_char_p
_c_str_array = ctypes.POINTER(ctypes.c_char_p)


def _candidates():
    given = os.environ.get("GPUFILTER_C_LIBRARY")
    if given:
        return [given]
    here = os.path.dirname(os.path.abspath(__file__))
    return [os.path.join(here, "libgpufilter_c.so")]


def _load():
    errors = []
    for path in _candidates():
        try:
            # Through its real path: an installed package names lib/'s libgpufilter_c by a
            # link, and the library finds libgpufilter.so beside the file itself ($ORIGIN).
            return ctypes.CDLL(os.path.realpath(path))
        except OSError as error:
            errors.append(str(error))
    raise ImportError(
        "gpufilter: cannot load libgpufilter_c (" + "; ".join(errors) + "). Build it "
        "(target gpufilter_c) and install the package (see docs/python.md), or set "
        "GPUFILTER_C_LIBRARY to the library's path")


def _declare(lib):
    def fn(name, restype, *argtypes):
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = list(argtypes)
        return function

    status = ctypes.c_int
    image_p = ctypes.POINTER(Image)
    fn("gpufilter_abi_version", ctypes.c_int)
    fn("gpufilter_version", _c_str_p)
    fn("gpufilter_last_error", _c_str_p)
    fn("gpufilter_device_count", ctypes.c_int)
    fn("gpufilter_no_device_reason", _c_str_p)
    fn("gpufilter_device_description", _c_str_p)
    fn("gpufilter_registry_json", _c_str_p)
    fn("gpufilter_request_create", status, _c_str_p, ctypes.c_int, _c_str_array, _c_str_array, _c_str_p,
       ctypes.POINTER(ctypes.c_double), ctypes.c_int, _c_str_p, ctypes.POINTER(RequestPointer))
    fn("gpufilter_request_destroy", None, RequestPointer)
    fn("gpufilter_request_output_shape", status, RequestPointer, image_p, image_p)
    fn("gpufilter_request_reach", status, RequestPointer, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int))
    fn("gpufilter_request_run", status, RequestPointer, image_p, image_p, ctypes.c_int, ctypes.c_int,
       ctypes.c_void_p)
    fn("gpufilter_request_data_layout", status, RequestPointer, image_p, ctypes.POINTER(_c_str_p),
       ctypes.POINTER(ctypes.c_size_t))
    fn("gpufilter_request_run_data", status, RequestPointer, image_p, ctypes.POINTER(ctypes.c_double),
       ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_void_p)
    fn("gpufilter_device_alloc", status, ctypes.c_size_t, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p))
    fn("gpufilter_device_free", None, ctypes.c_void_p)
    fn("gpufilter_copy", status, image_p, image_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int)
    fn("gpufilter_stream_synchronize", status, ctypes.c_void_p)
    fn("gpufilter_pointer_info", status, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int))
    fn("gpufilter_file_read", status, _c_str_p, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p), image_p)
    fn("gpufilter_file_image_free", None, ctypes.c_void_p)
    fn("gpufilter_file_write", status, _c_str_p, image_p, ctypes.c_int, ctypes.c_int, ctypes.c_int)
    fn("gpufilter_batch", status, RequestPointer, ctypes.c_int, _c_str_array, _c_str_p, _c_str_p, _c_str_p,
       ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int, ctypes.c_int,
       ctypes.c_int, ctypes.c_int, ctypes.POINTER(_c_str_p))
    return lib


lib = _declare(_load())
if lib.gpufilter_abi_version() != ABI_VERSION:
    raise ImportError("gpufilter: libgpufilter_c has C interface version %d; this package needs %d"
                      % (lib.gpufilter_abi_version(), ABI_VERSION))


def last_error():
    return lib.gpufilter_last_error().decode("utf-8", "replace")


def raise_for(status):
    """Raises the exception for a failed call's status, with the library's message in
    Python's names (keyword arguments, not the tool's options)."""
    from ._messages import pythonic  # the messages need the registry, which needs this module
    message = pythonic(last_error())
    if status == IO_REQUEST and message.endswith(("pass replace=True to replace it",
                                                  "pass replace=True to replace them")):
        raise FileExistsError(errno.EEXIST, message)
    if status == INVALID_ARGUMENT or status == IO_REQUEST:
        raise ValueError(message)
    if status == UNSUPPORTED_FORMAT:
        raise TypeError(message)
    if status == NO_DEVICE:
        raise NoDeviceError(message, status)
    if status in (IO_INPUT, IO_OUTPUT):
        raise FileError(message, status)
    raise Error(message, status)


def check(status):
    if status != OK:
        raise_for(status)


def pointer_device(pointer):
    """The GPU that device memory at `pointer` belongs to (-1: host memory)."""
    device, memory = ctypes.c_int(), ctypes.c_int()
    check(lib.gpufilter_pointer_info(pointer, ctypes.byref(device), ctypes.byref(memory)))
    return device.value
