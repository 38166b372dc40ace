"""The exceptions gpufilter raises.

Bad arguments raise the built-in ValueError (a parameter out of range, an unknown
variant) or TypeError (a pixel format or array type the op does not take), with the
message the command-line tool prints, its options named as Python's keywords. Failures of the machine (CUDA, memory, files)
raise gpufilter.Error, whose `status` names the C interface's status code. Files raise
Python's own FileNotFoundError and FileExistsError where those say what happened.
"""


class Error(RuntimeError):
    """A CUDA, memory or file failure inside gpufilter."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


class NoDeviceError(Error):
    """A GPU was required (device="gpu", or a CUDA array) and none is usable."""


class FileError(Error):
    """A file could not be read or written (missing, not an image, unwritable)."""


class BatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during gpufilter.batch(): `results` holds the dicts of the files done (each
    written whole); the rest did not run."""

    def __init__(self, results):
        super().__init__("gpufilter.batch interrupted after %d files" % len(results))
        self.results = results
