"""An op's help(): the lines `gpufilter OP --help` shows, in Python's names (keyword
arguments for the tool's options)."""
import textwrap

from ._messages import pythonic
from ._registry import BORDERS, DEFAULT_BORDER, FORMATS


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
    lines = [pythonic(op.summary), "", " %s options:" % op.name]
    for p in op.params:
        metavar = "" if p.kind == "flag" else (p.metavar or "|".join(p.choices))
        lines += _option_lines(p.py_name, metavar, pythonic(p.description))
    lines += ["", " Common options:"]
    if op.uses_border:
        lines += _option_lines("border", "MODE", "pixels outside the image: " + ", ".join(BORDERS) +
                               ", or SciPy's, numpy.pad's and OpenCV's names for them ('mirror' is "
                               "reflect101, 'symmetric' reflect, 'nearest' replicate) (default: %s)"
                               % DEFAULT_BORDER)
        lines += _option_lines("border_value", "V or (V, ...)",
                               "value outside the image with border='constant', in the image's units (8-bit: "
                               "0..255, 16-bit: 0..65535, whole numbers); one number for every channel or one per "
                               "channel (default: 0)")
    lines += _option_lines("variant", "NAME", "kernel to run on the GPU: " + ", ".join(op.variants) +
                           " (default: %s)" % op.default_variant)
    lines += _option_lines("device", "auto|gpu|cpu",
                           "for host arrays (NumPy, CPU tensors): auto: the GPU when one is usable, else the CPU "
                           "(with a warning, once); gpu: through the GPU; cpu: the CPU's fast path. CUDA arrays run "
                           "on their own GPU (default: auto)")
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
