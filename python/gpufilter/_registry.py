"""The registry (every op, its parameters, variants and formats) as the C interface
describes it in JSON, and what the Python functions need from it: names, and how a
value is written for the library."""
import json
import keyword
import numbers

from ._native import lib
from ._suggest import did_you_mean

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
        # What the help shows for it: where the default depends on other parameters (blur's
        # sigma, which --geometry may give instead), the value taken without them ("2").
        self.default_text = data.get("default_text", "")
        if self.kind == "flag":
            self.default = False
        elif isinstance(self.default, list):
            self.default = tuple(self.default)

    def text(self, value):
        """`value` written as the command line writes it; the library parses and judges it.
        Strings pass as they are ("5x3", "sobel"), so anything the CLI takes works too."""
        what = self.py_name
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


def unknown_op_message(name):
    names = [op.name for op in OPS]
    return "unknown op '%s'; known ops: %s%s" % (name, ", ".join(names), did_you_mean(name, names))
