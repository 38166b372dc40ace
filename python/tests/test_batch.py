"""gpufilter.batch beyond test_files.py: runs in chunks (the same results as one call),
outputs checked over the whole list before anything runs, Ctrl-C stops it with the files
done so far."""
import os
import signal
import threading

import numpy
import pytest

import gpufilter
from gpufilter import _batch


def _names(results):
    return [os.path.basename(r["output"]) for r in results]


def test_chunks_give_the_same_files_in_the_same_order(tmp_path, image_files, monkeypatch):
    whole = gpufilter.batch("invert", image_files, tmp_path / "whole", device="cpu", shard=(1, 3))
    monkeypatch.setattr(_batch, "CHUNK_FILES", 2)
    chunked = gpufilter.batch("invert", image_files, tmp_path / "chunked", device="cpu", shard=(1, 3))
    assert [r["input"] for r in chunked] == [str(p) for p in image_files[1::3]]
    assert _names(chunked) == _names(whole)
    for a, b in zip(whole, chunked):
        assert a["ok"] and b["ok"]
        assert numpy.array_equal(gpufilter.read(a["output"]), gpufilter.read(b["output"]))


def test_existing_outputs_raise_file_exists_before_anything_runs(tmp_path, image_files, monkeypatch):
    out = tmp_path / "out"
    gpufilter.batch("invert", image_files[3:5], out, device="cpu")
    monkeypatch.setattr(_batch, "CHUNK_FILES", 2)
    with pytest.raises(FileExistsError) as caught:
        gpufilter.batch("invert", image_files[:6], out, device="cpu")
    assert str(caught.value).startswith("[Errno 17] 2 of the 6 outputs exist in '%s' (the first: '%s'); pass "
                                        "replace=True to replace them" % (out, out / "image03.png"))
    assert sorted(os.listdir(out)) == ["image03.png", "image04.png"]  # the first chunk did not run
    results = gpufilter.batch("invert", image_files[:6], out, device="cpu", replace=True)
    assert all(r["ok"] for r in results) and len(os.listdir(out)) == 6


def test_two_inputs_onto_one_output_are_refused(tmp_path, image_files):
    other = tmp_path / "other"
    other.mkdir()
    twin = other / image_files[0].name
    twin.write_bytes(image_files[0].read_bytes())
    with pytest.raises(ValueError, match="would both be written to .*; give them different names or use suffix"):
        gpufilter.batch("invert", [image_files[0], image_files[1], twin], tmp_path / "out", device="cpu")
    assert not (tmp_path / "out").exists()


class _InterruptAfterFirstCall:
    """The C library, but Ctrl-C (SIGINT, to the main thread, as a terminal sends it)
    arrives as its first batch call returns; the chunks' thread then waits until
    batch() has seen it, so the test does not depend on the machine's speed."""

    def __init__(self, lib):
        self.lib, self.calls = lib, 0

    def __getattr__(self, name):
        return getattr(self.lib, name)

    def gpufilter_batch(self, *args):
        status = self.lib.gpufilter_batch(*args)
        self.calls += 1
        if self.calls == 1:
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
            assert threading.current_thread().stop.wait(60)
        return status


def test_ctrl_c_keeps_the_files_done(tmp_path, image_files, monkeypatch):
    monkeypatch.setattr(_batch, "CHUNK_FILES", 3)
    lib = _InterruptAfterFirstCall(_batch.lib)
    monkeypatch.setattr(_batch, "lib", lib)
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt) as caught:
        gpufilter.batch("invert", image_files, out, device="cpu")
    assert isinstance(caught.value, gpufilter.BatchInterrupted)
    results = caught.value.results
    # the first chunk, done when Ctrl-C came; no other started
    assert len(results) == 3 and lib.calls == 1
    assert [r["input"] for r in results] == [str(p) for p in image_files[:len(results)]]
    assert all(r["ok"] for r in results)
    assert sorted(os.listdir(out)) == sorted(_names(results))


def test_batch_errors_name_keywords(tmp_path, image_files):
    with pytest.raises(ValueError, match="^box: give size or radius, not both$"):
        gpufilter.batch("box", image_files[:1], tmp_path / "out", size=3, radius=1, device="cpu")
    with pytest.raises(ValueError, match=r"shard needs 0 <= index < count, got \(4, 4\)"):
        gpufilter.batch("invert", image_files, tmp_path / "out", shard=(4, 4), device="cpu")
    assert gpufilter.batch("invert", image_files[:2], tmp_path / "out", shard=(2, 3), device="cpu") == []
