"""Reads a DLPack capsule (from any array's __dlpack__) through ctypes: the data pointer,
device, dtype, shape and strides, without taking the tensor over (the capsule keeps its
name, so its own destructor releases it)."""
import ctypes

KDL_CPU = 1
KDL_CUDA = 2
KDL_CUDA_HOST = 3
KDL_CUDA_MANAGED = 13


class _Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _Tensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _Device),
        ("ndim", ctypes.c_int32),
        ("dtype", _DataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class _ManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _Tensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

# DLPack's (type code, bits) -> NumPy's typestr
_TYPESTR = {(1, 8): "|u1", (1, 16): "<u2", (2, 32): "<f4", (0, 8): "|i1", (0, 16): "<i2", (0, 32): "<i4",
            (1, 32): "<u4", (2, 64): "<f8", (2, 16): "<f2"}


def describe(capsule):
    """(pointer, device_type, device_id, typestr, shape, strides in bytes or None)."""
    address = _get_pointer(capsule, b"dltensor")
    tensor = _ManagedTensor.from_address(address).dl_tensor
    code, bits, lanes = tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes
    typestr = _TYPESTR.get((code, bits), "dlpack(%d,%d)" % (code, bits)) if lanes == 1 else "vector"
    shape = tuple(tensor.shape[i] for i in range(tensor.ndim))
    itemsize = bits // 8
    strides = None
    if tensor.strides:
        strides = tuple(tensor.strides[i] * itemsize for i in range(tensor.ndim))
    return ((tensor.data or 0) + tensor.byte_offset, tensor.device.device_type, tensor.device.device_id, typestr,
            shape, strides)
