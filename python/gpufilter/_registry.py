"""The registry (every op, its parameters, variants and formats) as the C interface
describes it in JSON, and what the Python functions need from it: names, how a value
is written for the library, and the help text `gpufilter OP --help` shows."""
import json
import keyword
import numbers
import textwrap

from ._native import lib

DATA = json.loads(lib.gpufilter_registry_json().decode("utf-8"))
VERSION = DATA["version"]
BORDERS = tuple(DATA["borders"])
DEFAULT_BORDER = DATA["default_border"]
FORMATS = tuple(DATA["formats"])


# Arguments every op's function has; an op parameter of the same name gets a trailing _.
COMMON_ARGUMENTS = ("image", "border", "border_value", "variant", "device", "stream", "out")


def python_name(name):
    """The keyword argument for a registry name: sigma-y -> sigma_y; a Python keyword or a
    common argument gets a trailing _ (levels' in and out: in_, out_)."""
    name = name.replace("-", "_")
    return name + "_" if keyword.iskeyword(name) or name in COMMON_ARGUMENTS else name


def _number_text(value, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError("%s expects a number, got %r" % (what, value))
    if isinstance(value, numbers.Integral):
        return str(int(value))
    return repr(float(value))


class Param:
    def __init__(self, op_name, data):
        self.op_name = op_name
        self.name = data["name"]
        self.py_name = python_name(self.name)
        self.kind = data["kind"]
        self.help = data["help"]
        self.description = data["description"]
        self.choices = tuple(data["choices"])
        self.metavar = data["metavar"]
        self.default = data["default"]
        if self.kind == "flag":
            self.default = False
        elif isinstance(self.default, list):
            self.default = tuple(self.default)

    def text(self, value):
        """`value` written as the command line writes it; the library parses and judges it.
        Strings pass as they are ("5x3", "sobel"), so anything the CLI takes works too."""
        what = "--" + self.name
        if self.kind == "flag":
            return "1" if value else "0"
        if isinstance(value, str):
            return value
        if self.kind == "number":
            return _number_text(value, what)
        if self.kind == "numbers":
            try:
                items = list(value)
            except TypeError:
                items = [value]
            return ",".join(_number_text(item, what) for item in items)
        raise TypeError("%s expects text, got %r" % (what, value))


class Op:
    def __init__(self, data):
        self.name = data["name"]
        self.summary = data["summary"]
        self.gives_image = data["output"] == "image"
        self.keeps_shape = data["keeps_shape"]
        self.uses_border = data["uses_border"]
        self.variants = tuple(data["variants"])
        self.default_variant = data["default_variant"]
        self.formats = tuple(data["formats"])
        self.params = tuple(Param(self.name, p) for p in data["params"])


OPS = tuple(Op(data) for data in DATA["ops"])


def describe_formats(formats):
    """u8x{1,3,4} u16x{1,3,4} f32x{1,3,4}, as `gpufilter list` writes them."""
    parts = []
    for kind in ("u8", "u16", "f32"):
        channels = [f.split("x")[1] for f in FORMATS if f in formats and f.split("x")[0] == kind]
        if not channels:
            continue
        parts.append(kind + "x" + (channels[0] if len(channels) == 1 else "{" + ",".join(channels) + "}"))
    return " ".join(parts) if parts else "none"


def _option_lines(name, metavar, description):
    head = "      " + name + (" " + metavar if metavar else "")
    body = textwrap.wrap(description, 60, break_on_hyphens=False, break_long_words=False) or [""]
    if len(head) <= 30:
        lines = [head.ljust(32) + body[0]]
    else:
        lines = [head, " " * 32 + body[0]]
    return lines + [" " * 32 + line for line in body[1:]]


def help_text(op):
    """The op's help as `gpufilter OP --help` shows it, with Python's argument names."""
    lines = [op.summary, "", " %s options:" % op.name]
    for p in op.params:
        metavar = "" if p.kind == "flag" else (p.metavar or "|".join(p.choices))
        lines += _option_lines(p.py_name, metavar, p.description)
    lines += ["", " Common options:"]
    if op.uses_border:
        lines += _option_lines("border", "MODE", "pixels outside the image: " + ", ".join(BORDERS) +
                               " (default: %s)" % DEFAULT_BORDER)
        lines += _option_lines("border_value", "V or (V, ...)",
                               "value outside the image with border='constant', in the image's units (8-bit: "
                               "0..255, 16-bit: 0..65535, whole numbers); one number for every channel or one per "
                               "channel (default: 0)")
    lines += _option_lines("variant", "NAME", "kernel to run on the GPU: " + ", ".join(op.variants) +
                           " (default: %s)" % op.default_variant)
    lines += _option_lines("device", "auto|gpu|cpu",
                           "for host arrays (NumPy, CPU tensors): auto: the GPU when one is usable, else the CPU "
                           "reference; gpu: through the GPU; cpu: the CPU reference. CUDA arrays run on their own "
                           "GPU (default: auto)")
    lines += _option_lines("stream", "STREAM",
                           "for CUDA arrays: the stream to run on (a torch.cuda.Stream, cupy.cuda.Stream or a "
                           "cudaStream_t as an int) (default: the array library's current stream)")
    if op.gives_image:
        lines += _option_lines("out", "ARRAY", "write the result into this array (same kind and device as "
                               "the input, of the output's shape and dtype) and return it (default: a new array)")
        returns = "an array of the input's kind on the input's device"
    else:
        returns = "a dict: the table's rows and columns and its values"
    lines += ["", "Returns " + returns + ".", "Pixel formats: " + describe_formats(op.formats)]
    return "\n".join(lines) + "\n"
