"""The exceptions gpufilter raises.

Bad arguments raise the built-in ValueError (a parameter out of range, an unknown
variant) or TypeError (a pixel format or array type the op does not take), with the
message the command-line tool prints. Failures of the machine (CUDA, memory, files)
raise gpufilter.Error, whose `status` names the C interface's status code.
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
