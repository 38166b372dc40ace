"""gpufilter.batch's per-file results: each file's own outcome, found by its place in the
batch rather than by matching message lines against paths, in time linear in the files."""
import time

import numpy

import gpufilter

from conftest import random_image


def test_a_result_is_its_own_files_not_one_whose_name_it_begins(tmp_path, rng):
    """`x.png` is written; `x.png: y.png` is missing, and its error line begins with the
    first file's name followed by ": ". The written file must not take that error."""
    folder = tmp_path / "in"
    folder.mkdir()
    written = folder / "x.png"
    gpufilter.write(written, random_image(rng, 8, 9, 3, numpy.uint8))
    missing = folder / "x.png: y.png"
    results = gpufilter.batch("invert", [missing, written], tmp_path / "out", device="cpu")
    assert [r["input"] for r in results] == [str(missing), str(written)]
    assert not results[0]["ok"]
    assert "y.png" in results[0]["error"]
    assert results[1]["ok"], results[1]["error"]
    assert results[1]["error"] == ""
    assert (tmp_path / "out" / "x.png").exists()


def test_many_failed_files_are_reported_in_linear_time(tmp_path, rng):
    """200,000 missing files and one written file: each gets its own result. Pairing each
    file with every error line is quadratic, minutes for a list this long; one result per
    file is seconds. The bound lies far from both, so the outcome does not hinge on the
    machine's speed."""
    written = tmp_path / "written.png"
    gpufilter.write(written, random_image(rng, 4, 5, 1, numpy.uint8))
    count = 200000
    inputs = [str(tmp_path / ("missing%06d.png" % i)) for i in range(count)] + [str(written)]
    began = time.monotonic()
    results = gpufilter.batch("invert", inputs, tmp_path / "out", device="cpu", jobs=2)
    seconds = time.monotonic() - began
    assert len(results) == count + 1
    assert all(not r["ok"] and r["error"] for r in results[:count])
    assert results[count]["ok"] and results[count]["input"] == str(written)
    assert seconds < 60, "%d failed files took %.1f s: the results are not linear in the files" % (count, seconds)
