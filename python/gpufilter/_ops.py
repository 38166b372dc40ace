"""One Python function per registry op, generated from the registry (names, parameters,
defaults, help), and the path every call takes: parameters checked once per distinct
set (a cached request), the array described without copying, the op run where the data
lives."""
import ctypes
import inspect
import json
import warnings

import numpy

from . import _arrays, _borders, _help, _native, _registry, _stacks, _suggest
from ._native import lib

_REQUEST_CACHE_SIZE = 64
_DEVICES = ("auto", "gpu", "cpu")


class _Request:
    """A gpufilter_request: an op's parameters, border and variant, checked by the library."""
    __slots__ = ("handle",)

    def __init__(self, op, texts, border, border_value, variant):
        names = [name.encode() for name, _ in texts]
        values = [value.encode() for _, value in texts]
        name_array = (ctypes.c_char_p * max(1, len(names)))(*names)
        value_array = (ctypes.c_char_p * max(1, len(values)))(*values)
        border_array = (ctypes.c_double * max(1, len(border_value)))(*border_value)
        handle = _native.RequestPointer()
        _native.check(lib.gpufilter_request_create(
            op.name.encode(), len(texts), name_array, value_array, border.encode() if border is not None else None,
            border_array, len(border_value), variant.encode() if variant is not None else None,
            ctypes.byref(handle)))
        self.handle = handle

    def __del__(self, destroy=lib.gpufilter_request_destroy):
        if getattr(self, "handle", None):
            destroy(self.handle)


def _border_values(value):
    if value is None:
        return ()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (float(value),)
    try:
        return tuple(float(v) for v in value)
    except TypeError:
        raise TypeError("border_value takes a number or a sequence of numbers, got %r" % (value,)) from None


class _Caller:
    """Runs one op; keeps the requests of its recent parameter sets."""

    def __init__(self, op):
        self.op = op
        self.requests = {}

    def request(self, values, border, border_value, variant):
        key = (values, border, border_value, variant)
        try:
            return self.requests[key]
        except (KeyError, TypeError):
            pass
        texts = []
        for param, value in zip(self.op.params, values):
            if value is None or (param.kind == "flag" and not value):
                continue
            texts.append((param.name, param.text(value)))
        if border is not None and not isinstance(border, str):
            raise TypeError("border takes one of %s, got %r" % (", ".join(_registry.BORDERS), border))
        if border is not None:
            border = _checked_border(border)
        if variant is not None and not isinstance(variant, str):
            raise TypeError("variant takes a name, got %r" % (variant,))
        request = _Request(self.op, texts, border, _border_values(border_value), variant)
        try:
            hash(key)
        except TypeError:
            return request  # a list among the values: not kept
        if len(self.requests) >= _REQUEST_CACHE_SIZE:
            try:  # the oldest goes; another thread may have taken it out already
                del self.requests[next(iter(self.requests))]
            except (KeyError, RuntimeError, StopIteration):
                pass
        self.requests[key] = request
        return request

    def __call__(self, image, values, border, border_value, variant, device, stream, out):
        if _stacks.is_stack(image):
            return _stacks.run(lambda one, one_out: self(one, values, border, border_value, variant, device, stream,
                                                         one_out), image, out, self.op.gives_image)
        if _arrays.is_float64(image):
            return self.run_float64(image, values, border, border_value, variant, device, stream, out)
        request = self.request(values, border, border_value, variant)
        if device not in _DEVICES:
            raise ValueError("unknown device %r; use auto, gpu or cpu" % (device,))
        src = _arrays.view_of(image, numpy, _arrays.stream_handle(stream))
        pitch = src.pitch_or_none()
        made = []  # arrays made here on the library's current stream
        if pitch is None:
            src = _arrays.compact(src, numpy)
            pitch = src.pitch_or_none()
            made.append(src.obj)
        where = _where(src, device)
        handle = None if where == _native.CPU or (where == _native.HOST_VIA_GPU and stream is None) \
            else _arrays.stream_of(src, stream)
        if src.cai_stream not in (None, 1, 2) and src.cai_stream != handle:
            # The producer's work on its stream must be done before ours reads the array.
            _native.check(lib.gpufilter_stream_synchronize(src.cai_stream))
        src_image = src.image(pitch)
        if not self.op.gives_image:
            if stream is not None and where == _native.GPU:
                _arrays.join_current_stream(src, handle, made)
            return _run_data(request, src, src_image, where, handle)
        return self.run_image(request, src, src_image, where, handle, out, stream is not None, made)

    def run_float64(self, image, values, border, border_value, variant, device, stream, out):
        """float64 pixels (SciPy's and scikit-image's default) computed as float32, the
        library's float type, and given back as float64."""
        result = self(_arrays.cast(image, "float32"), values, border, border_value, variant, device, stream, None)
        if not self.op.gives_image:
            return result
        if _arrays.is_float32(result):
            result = _arrays.cast(result, "float64")
        if out is None:
            return result
        return _arrays.assign(out, result)

    def run_image(self, request, src, src_image, where, stream, out, explicit_stream, made):
        if self.op.keeps_shape:
            shape, ctype = src.shape, src.ctype
            out_image = None
        else:
            out_image = _native.Image()
            _native.check(lib.gpufilter_request_output_shape(request.handle, src_image, out_image))
            channels = out_image.channels
            # One channel out is (H, W), as OpenCV and scikit-image give gray, unless the
            # input was itself (H, W, 1).
            flat = channels == 1 and (len(src.shape) == 2 or src.channels > 1)
            shape = (out_image.height, out_image.width) if flat else (out_image.height, out_image.width, channels)
            ctype = out_image.type
        if out is None:
            result = _arrays.new_like(src, shape, ctype, numpy)
            dst = _arrays.view_of(result, numpy)
            made.append(result)
        else:
            result = out
            dst = _arrays.view_of(out, numpy, _arrays.stream_handle(stream), native=False)
            if dst.readonly:
                raise ValueError("out is read-only")
            if dst.on_gpu != src.on_gpu or (dst.on_gpu and dst.device != src.device):
                raise ValueError("out must be in the same memory as the input (%s); it is in %s"
                                 % (_where_text(src), _where_text(dst)))
        dst_pitch = dst.pitch_or_none()
        if dst_pitch is None:
            raise ValueError("out's strides %s are not rows of interleaved pixels: gpufilter writes into it "
                             "without a copy, so it must be" % (tuple(dst.strides),))
        if explicit_stream and where == _native.GPU:
            _arrays.join_current_stream(src, stream, made)
        _native.check(lib.gpufilter_request_run(request.handle, src_image, dst.image(dst_pitch), where,
                                                src.device, stream))
        return result


def _where_text(view):
    return "GPU %d" % view.device if view.on_gpu else "host memory"


def _checked_border(border):
    resolved = _borders.resolve(border, _registry.BORDERS)
    if resolved not in _registry.BORDERS:
        raise ValueError("unknown border %r; use one of %s, or another library's name for one (SciPy's 'mirror', "
                         "'nearest'; numpy.pad's 'symmetric', 'edge'; OpenCV's 'reflect_101')%s"
                         % (border, ", ".join(_registry.BORDERS), _suggest.did_you_mean(border, _registry.BORDERS)))
    return resolved


_has_gpu = None
_fallback_warned = False


def has_gpu():
    global _has_gpu
    if _has_gpu is None:
        _has_gpu = lib.gpufilter_device_count() > 0
    return _has_gpu


def warn_cpu_fallback(stacklevel=5):
    """Once per process: device='auto' found no GPU and runs on the CPU (the tool says
    so on its first run too). warnings.simplefilter("ignore", RuntimeWarning) hides it."""
    global _fallback_warned
    if not _fallback_warned:
        _fallback_warned = True
        warnings.warn("gpufilter: no usable GPU (%s); device='auto' runs on the CPU (pass device='cpu' to say so "
                      "and not see this)" % lib.gpufilter_no_device_reason().decode(), RuntimeWarning,
                      stacklevel=stacklevel)


def _where(src, device):
    if src.on_gpu:
        if device == "cpu":
            raise ValueError("device='cpu' runs on host memory; this array is on GPU %d (copy it to the host "
                             "first, or leave device as 'auto')" % src.device)
        return _native.GPU
    if device == "auto" and not has_gpu():
        warn_cpu_fallback()
        return _native.CPU
    if device == "cpu":
        return _native.CPU
    if not has_gpu():
        reason = lib.gpufilter_no_device_reason().decode()
        raise _native.NoDeviceError("device='gpu', but there is no usable GPU (%s)" % reason, _native.NO_DEVICE)
    return _native.HOST_VIA_GPU


def _run_data(request, src, src_image, where, stream):
    layout_text = ctypes.c_char_p()
    count = ctypes.c_size_t()
    _native.check(lib.gpufilter_request_data_layout(request.handle, src_image, ctypes.byref(layout_text),
                                                    ctypes.byref(count)))
    layout = json.loads(layout_text.value.decode())
    values = numpy.empty(count.value, dtype=numpy.float64)
    _native.check(lib.gpufilter_request_run_data(
        request.handle, src_image, values.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), count.value, where,
        src.device, stream))
    return _data_result(layout, values)


def _data_result(layout, values):
    """{column: values over the rows}, with the rows' labels under the layout's row title,
    and the whole table as `table` (rows x columns)."""
    rows, columns = layout["rows"], layout["columns"]
    table = values.reshape(len(rows), len(columns))
    if layout["row_title"] == "bin":  # each bin's lower edge, as a number
        rows = numpy.array([float(row) for row in rows])
    result = {layout["row_title"] + "s": rows}
    for index, column in enumerate(columns):
        result[column] = table[:, index]
    result["columns"] = columns
    result["table"] = table
    return result


_TEMPLATE = '''def {name}(image, *, {params}, **_unexpected):
    if _unexpected:
        _refuse(_unexpected)
    return _caller(image, ({values}), {border}, {border_value}, variant, device, stream, {out})
'''


_CALLERS = {}


def caller_of(op):
    """The op's _Caller, shared by its function and batches (one request cache)."""
    if op.name not in _CALLERS:
        _CALLERS[op.name] = _Caller(op)
    return _CALLERS[op.name]


def make_function(op):
    """The Python function for `op`: keyword arguments from the registry, its help as the
    CLI's, the call through _Caller."""
    caller = caller_of(op)
    namespace = {"_caller": caller}
    params = []
    for index, param in enumerate(op.params):
        namespace["_default%d" % index] = param.default
        params.append("%s=_default%d" % (param.py_name, index))
    if op.uses_border:
        params += ["border=%r" % _registry.DEFAULT_BORDER, "border_value=None"]
    params += ["variant=%r" % op.default_variant, 'device="auto"', "stream=None"]
    if op.gives_image:
        params.append("out=None")
    values = "".join(p.py_name + ", " for p in op.params)
    source = _TEMPLATE.format(name=op.name, params=", ".join(params), values=values,
                              border="border" if op.uses_border else "None",
                              border_value="border_value" if op.uses_border else "None",
                              out="out" if op.gives_image else "None")
    namespace["_refuse"] = lambda unexpected: _refuse_keywords(op.name, unexpected, function)
    exec(compile(source, "<gpufilter.%s>" % op.name, "exec"), namespace)
    function = namespace[op.name]
    # help() and inspect show the op's keywords; **_unexpected is there only to name a
    # mistyped one's nearest.
    signature = inspect.signature(function)
    function.__signature__ = signature.replace(parameters=[p for p in signature.parameters.values()
                                                           if p.kind != inspect.Parameter.VAR_KEYWORD])
    function.__doc__ = _help.help_text(op)
    function.__module__ = "gpufilter"
    function.__qualname__ = op.name
    return function


def _refuse_keywords(name, unexpected, function):
    keyword = next(iter(unexpected))
    known = [p for p in inspect.signature(function).parameters if p != "image"]
    raise TypeError("%s() got an unexpected keyword argument '%s'%s" % (name, keyword,
                                                                      _suggest.did_you_mean(keyword, known)))


def make_functions():
    return {op.name: make_function(op) for op in _registry.OPS}
