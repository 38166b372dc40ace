"""Border modes under the names other libraries give them. gpufilter's own names
(core/include/gpufilter/border.hpp), for a row `abcdefgh`:

    constant    iiii|abcdefgh|iiii   (i: border_value)
    replicate   aaaa|abcdefgh|hhhh
    reflect     dcba|abcdefgh|hgfe   (the edge pixel repeated)
    reflect101  edcb|abcdefgh|gfed   (the edge pixel not repeated)
    wrap        efgh|abcdefgh|abcd

The same word means different modes in different libraries: SciPy's and OpenCV's
`reflect` is ours, numpy.pad's `reflect` is our reflect101 (numpy.pad's `symmetric` is
our reflect). Our own names keep their meaning; the others' are aliases."""

ALIASES = {
    # scipy.ndimage (mode=)
    "mirror": "reflect101",
    "nearest": "replicate",
    "grid-mirror": "reflect",
    "grid-constant": "constant",
    "grid-wrap": "wrap",
    # numpy.pad, scikit-image
    "symmetric": "reflect",
    "edge": "replicate",
    # OpenCV (cv2.BORDER_*, with or without the prefix; REFLECT_101 is reflect101)
    "default": "reflect101",
}


def resolve(border, known):
    """Our name for `border` (ours, or another library's alias; case, '-' and a leading
    BORDER_ ignored). An unknown name comes back unchanged for the library to refuse."""
    if not isinstance(border, str):
        return border
    name = border.strip().lower().replace("_", "-")
    if name.startswith("border-"):
        name = name[len("border-"):]
    if name in known:
        return name
    if name.replace("-", "") in known:  # reflect-101 -> reflect101
        return name.replace("-", "")
    alias = ALIASES.get(name)
    return alias if alias in known else border
