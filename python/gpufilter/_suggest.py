"""Suggestions for mistyped names: close spellings (difflib), and the names other image
libraries give the same parameter (SciPy's `size` and `mode`, OpenCV's `ksize`), so a
caller who reaches for those is pointed at ours."""
import difflib

# Another library's keyword -> ours, where it means the same (or the nearest) thing.
_OTHER_LIBRARIES = {
    "size": ("radius",),            # scipy.ndimage.median_filter(size=3): median(radius=1)
    "ksize": ("size", "radius"),    # cv2.blur(ksize=...), cv2.medianBlur(ksize)
    "kernel_size": ("size", "radius"),
    "footprint": ("radius", "size"),
    "sigmax": ("sigma",),           # cv2.GaussianBlur(sigmaX=...)
    "sigma_x": ("sigma",),
    "sigmay": ("sigma_y",),
    "mode": ("border",),            # scipy.ndimage's mode=
    "border_mode": ("border",),
    "bordertype": ("border",),      # OpenCV's borderType
    "cval": ("border_value",),      # scipy.ndimage's cval=
    "constant_values": ("border_value",),  # numpy.pad's
    "truncate": ("radius",),
    "dsize": ("size",),             # cv2.resize(dsize=...)
    "interpolation": ("filter",),   # cv2.resize(interpolation=...)
    "fx": ("scale",),
    "fy": ("scale",),
    "thresh": ("value",),
    "nbins": ("bins",),
}


def suggestions(name, known):
    """The names of `known` that `name` may have meant, best first."""
    known = list(known)
    found = [k for k in _OTHER_LIBRARIES.get(str(name).lower(), ()) if k in known]
    for close in difflib.get_close_matches(str(name), known, n=3, cutoff=0.6):
        if close not in found:
            found.append(close)
    return found


def did_you_mean(name, known):
    """"; did you mean 'radius'?" (or "" when nothing is close), to end a message."""
    found = suggestions(name, known)
    if not found:
        return ""
    return "; did you mean %s?" % " or ".join("'%s'" % f for f in found[:2])
