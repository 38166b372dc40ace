"""Paths and strings handed to the C library, which reads them up to their first NUL:
one holding a NUL would silently name another file, so it is refused as os.open does."""
import os


def checked_path(path):
    """`path` (str, bytes or os.PathLike) as bytes for the library; ValueError for an
    embedded NUL."""
    encoded = os.fsencode(os.fspath(path))
    if b"\0" in encoded:
        raise ValueError("embedded null byte in path %r" % (path,))
    return encoded


def checked_text(text, what):
    encoded = text if isinstance(text, bytes) else str(text).encode()
    if b"\0" in encoded:
        raise ValueError("embedded null byte in %s %r" % (what, text))
    return encoded
