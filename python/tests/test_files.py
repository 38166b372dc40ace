"""Files and batches through gpufilter_io, as the command-line tool reads and writes them."""
import numpy
import pytest

import gpufilter

from conftest import random_image


@pytest.mark.parametrize("dtype,channels", [(numpy.uint8, 0), (numpy.uint8, 3), (numpy.uint8, 4),
                                            (numpy.uint16, 3)])
def test_png_round_trip(tmp_path, rng, dtype, channels):
    image = random_image(rng, 33, 47, channels, dtype)
    path = tmp_path / "image.png"
    try:
        gpufilter.write(path, image)
    except gpufilter.Error as error:
        pytest.skip("image files cannot be written in this process: %s" % error)
    back = gpufilter.read(path)
    assert back.dtype == image.dtype and numpy.array_equal(back, image)


def test_write_refuses_to_replace_unless_asked(tmp_path, rng):
    image = random_image(rng, 8, 8, 3, numpy.uint8)
    path = tmp_path / "once.png"
    try:
        gpufilter.write(path, image)
    except gpufilter.Error as error:
        pytest.skip("image files cannot be written in this process: %s" % error)
    with pytest.raises(FileExistsError) as caught:
        gpufilter.write(path, image)
    assert caught.value.filename == str(path)
    assert str(caught.value) == "[Errno 17] the file exists; pass replace=True to replace it: '%s'" % path
    gpufilter.write(path, 255 - image, replace=True)
    assert numpy.array_equal(gpufilter.read(path), 255 - image)


def test_missing_files_raise_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError) as caught:
        gpufilter.read(tmp_path / "missing.png")
    assert caught.value.filename == str(tmp_path / "missing.png")
    with pytest.raises(FileNotFoundError) as caught:
        gpufilter.write(tmp_path / "no_folder" / "out.png", numpy.zeros((4, 4), numpy.uint8))
    assert caught.value.filename == str(tmp_path / "no_folder")
    # a file that is there but no image stays the library's FileError
    (tmp_path / "text.png").write_bytes(b"not a png")
    with pytest.raises(gpufilter.FileError):
        gpufilter.read(tmp_path / "text.png")


def test_a_nul_in_a_path_is_refused(tmp_path):
    """The library reads a path up to its first NUL: "a\0b.png" would be "a"."""
    image = numpy.zeros((4, 4), numpy.uint8)
    for call in (lambda: gpufilter.write(str(tmp_path / "a\0b.png"), image),
                 lambda: gpufilter.read(str(tmp_path / "a\0b.png")),
                 lambda: gpufilter.batch("invert", [str(tmp_path / "a\0b.png")], tmp_path / "out"),
                 lambda: gpufilter.batch("invert", [tmp_path / "a.png"], str(tmp_path / "o\0ut")),
                 lambda: gpufilter.batch("invert", [tmp_path / "a.png"], tmp_path / "out", suffix="_\0x")):
        with pytest.raises(ValueError, match="embedded null byte"):
            call()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_batch_writes_every_file_and_reports_each(tmp_path, image_files):
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not a png")
    inputs = list(image_files) + [broken]
    results = gpufilter.batch("blur", inputs, tmp_path / "out", sigma=1.5, device="cpu", suffix="_soft")
    assert len(results) == len(inputs)
    for path, result in zip(inputs, results):
        assert result["input"] == str(path)
        if path == broken:
            assert not result["ok"] and result["error"]
            continue
        assert result["ok"], result["error"]
        assert result["output"].endswith(path.stem + "_soft.png")
        expected = gpufilter.blur(gpufilter.read(path), sigma=1.5, device="cpu")
        assert numpy.array_equal(gpufilter.read(result["output"]), expected)


def test_batch_shard_and_parameter_errors(tmp_path, image_files):
    results = gpufilter.batch("invert", image_files, tmp_path / "out", shard=(1, 4), device="cpu")
    assert [r["input"] for r in results] == [str(p) for p in image_files[1::4]]
    with pytest.raises(ValueError, match="sigma"):
        gpufilter.batch("blur", image_files, tmp_path / "out", sigma=1000)
    with pytest.raises(TypeError, match="unexpected keyword"):
        gpufilter.batch("blur", image_files, tmp_path / "out", sigmaa=1)
    with pytest.raises(ValueError, match="unknown op"):
        gpufilter.batch("blurr", image_files, tmp_path / "out")


def test_png_and_jpeg_files_leave_the_codec_libraries_unloaded(tmp_path):
    """PNG and JPEG go through the tool's own codecs: a script that writes and reads them
    loads none of OpenCV's codec libraries, so none is loading while the interpreter
    exits (a library's constructors running then aborted such a script)."""
    import os
    import subprocess
    import sys
    script = """
import sys, numpy, gpufilter
image = numpy.full((9, 7, 3), 200, numpy.uint8)
for name in ("a.png", "b.jpg"):
    path = sys.argv[1] + "/" + name
    gpufilter.write(path, gpufilter.blur(image, sigma=1))
    assert gpufilter.read(path).shape == (9, 7, 3)
maps = open("/proc/self/maps").read()
print("loaded" if "imgcodecs" in maps or "gpufilter_codecs" in maps else "unloaded")
"""
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    result = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                            env=environment, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "unloaded", result.stderr
