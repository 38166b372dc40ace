"""gpufilter.batch: image files through the command-line tool's batch pipeline
(decoding threads, nvJPEG, several GPUs), in chunks on a thread of their own, so that
Ctrl-C stops it promptly: the chunk in flight finishes (its files written whole), no
other starts, and the files done so far come back on the exception."""
import ctypes
import errno
import json
import os
import threading

from . import _native, _ops, _registry, _suggest
from ._paths import checked_path, checked_text
from ._messages import pythonic
from ._native import lib
from .errors import BatchInterrupted

_DEVICE_CODES = {"auto": 0, "gpu": 1, "cpu": 2}
# batch()'s keywords besides the op's, for "did you mean" (sufix= -> suffix).
_OWN_KEYWORDS = ("suffix", "format", "device", "devices", "jobs", "shard", "quality", "replace", "border",
                 "border_value", "variant")

# Files per call of the pipeline: enough to keep its decoding threads and GPUs busy, few
# enough that Ctrl-C waits for little.
CHUNK_FILES = 64


def _stem_and_extension(path):
    """As std::filesystem::path's stem() and extension(), which name the library's
    outputs: the extension from the last '.', except a name's leading one."""
    name = os.path.basename(path)
    if name in (b".", b".."):
        return name, b""
    dot = name.rfind(b".")
    if dot <= 0:
        return name, b""
    return name[:dot], name[dot:]


def _suffix_of(format):
    return format if format.startswith(b".") else b"." + format


def _check_outputs(paths, out_dir, suffix, format, replace):
    """The outputs the library plans, checked over the whole list before the first chunk
    runs: two inputs onto one output, or outputs that exist (without replace=True)."""
    claimed = {}
    existing = []
    for path in paths:
        stem, extension = _stem_and_extension(path)
        output = os.path.join(out_dir, stem + suffix + (_suffix_of(format) if format else extension))
        key = os.path.normpath(output)
        if key in claimed:
            raise ValueError("'%s' and '%s' would both be written to '%s'; give them different names or use suffix"
                             % (os.fsdecode(claimed[key]), os.fsdecode(path), os.fsdecode(output)))
        claimed[key] = path
        if not replace and os.path.lexists(output):
            existing.append(output)
    if existing:
        raise FileExistsError(errno.EEXIST, "%d of the %d outputs exist in '%s' (the first: '%s'); pass "
                              "replace=True to replace them" % (len(existing), len(paths), os.fsdecode(out_dir),
                                                               os.fsdecode(existing[0])), os.fsdecode(existing[0]))


class _Chunks(threading.Thread):
    """Runs the chunks one after another until done or stopped."""

    def __init__(self, run_chunk, chunks):
        super().__init__(name="gpufilter.batch", daemon=True)
        self.run_chunk, self.chunks = run_chunk, chunks
        self.results, self.error = [], None
        self.stop = threading.Event()
        # Waited for instead of join(): Python 3.11's join(), interrupted by Ctrl-C,
        # can take a running thread for finished.
        self.done = threading.Event()

    def run(self):
        try:
            for chunk in self.chunks:
                if self.stop.is_set():
                    return
                self.results.extend(self.run_chunk(chunk))
        except BaseException as error:  # handed to the caller's thread
            self.error = error
        finally:
            self.done.set()


def _wait(worker):
    """Waits for `worker`; on Ctrl-C, lets the chunk in flight finish (a second Ctrl-C
    stops waiting for it) and raises BatchInterrupted with the files done."""
    try:
        while not worker.done.wait(0.2):
            pass
    except KeyboardInterrupt:
        worker.stop.set()
        try:
            while not worker.done.wait(0.2):
                pass
        except KeyboardInterrupt:
            pass
        raise BatchInterrupted(list(worker.results)) from None
    if worker.error is not None:
        raise worker.error


def batch(op, inputs, out_dir, *, suffix="", format=None, device="auto", devices=None, jobs=0, shard=None,
          quality=95, replace=False, border=None, border_value=None, variant=None, **params):
    """Runs image op `op` (a name, "blur") over image files as `gpufilter OP IN... --out-dir
    DIR` does, on the same pipeline: each input becomes out_dir/<name><suffix><ext> (ext:
    `format`, "jpg", or the input's own). `params` are the op's (sigma=2.0, ...);
    `devices` a list of GPU ordinals or "all"; `shard` (I, N) keeps inputs I, I+N, ...
    Returns one dict per input kept: {"input", "output", "ok", "error"}. A file that
    fails is reported there and the others go on. Outputs that exist raise
    FileExistsError before anything runs, unless replace=True. Ctrl-C raises
    gpufilter.BatchInterrupted (a KeyboardInterrupt) once the files in flight are
    written, with the dicts of the files done as its `results`."""
    found = [o for o in _registry.OPS if o.name == op]
    if not found:
        raise ValueError(_registry.unknown_op_message(op))
    caller = _ops.caller_of(found[0])
    known = [p.py_name for p in caller.op.params]
    for name in params:
        if name not in known:
            raise TypeError("%s() got an unexpected keyword argument '%s'%s"
                            % (op, name, _suggest.did_you_mean(name, known + list(_OWN_KEYWORDS))))
    values = tuple(params.get(p.py_name) for p in caller.op.params)
    request = caller.request(values, border, border_value, variant)
    if device not in _DEVICE_CODES:
        raise ValueError("unknown device %r; use auto, gpu or cpu" % (device,))
    paths = [checked_path(p) for p in ([inputs] if isinstance(inputs, (str, bytes, os.PathLike)) else inputs)]
    out_dir, suffix = checked_path(out_dir), checked_text(suffix, "suffix")
    format = checked_text(format, "format") if format else None
    if devices == "all":
        device_list, device_count = [], -1
    else:
        device_list = [int(d) for d in (devices or [])]
        device_count = len(device_list)
    shard_index, shard_count = shard if shard is not None else (0, 1)
    shard_index, shard_count = int(shard_index), int(shard_count)
    if shard_count < 1 or not 0 <= shard_index < shard_count:
        raise ValueError("shard needs 0 <= index < count, got (%d, %d)" % (shard_index, shard_count))
    if not paths:
        raise ValueError("no input files")
    # The shard is taken here, so that each chunk runs whole.
    paths = paths[shard_index::shard_count]
    if not paths:
        return []
    _check_outputs(paths, out_dir, suffix, format, replace)
    if device == "auto" and not _ops.has_gpu():
        _ops.warn_cpu_fallback(stacklevel=3)

    def run_chunk(chunk):
        text = ctypes.c_char_p()
        _native.check(lib.gpufilter_batch(
            request.handle, len(chunk), (ctypes.c_char_p * len(chunk))(*chunk), out_dir, suffix, format,
            _DEVICE_CODES[device], device_count, (ctypes.c_int * max(1, len(device_list)))(*device_list),
            int(jobs), 0, 1, int(quality), 1 if replace else 0, ctypes.byref(text)))
        files = json.loads(text.value.decode("utf-8", "surrogateescape"))["files"]
        for result in files:
            result["error"] = pythonic(result["error"])
        return files

    worker = _Chunks(run_chunk, [paths[i:i + CHUNK_FILES] for i in range(0, len(paths), CHUNK_FILES)])
    worker.start()
    _wait(worker)
    return worker.results
