"""Shared fixtures: random images (never zeros), and whether a GPU, PyTorch or CuPy is here."""
import os
import shutil

import numpy
import pytest

import gpufilter

DTYPES = {"u8": numpy.uint8, "u16": numpy.uint16, "f32": numpy.float32}


def random_image(rng, height, width, channels, dtype):
    """Random pixels over the dtype's whole range (f32: 0..1); shape (H, W) for channels 0."""
    shape = (height, width) if channels == 0 else (height, width, channels)
    if dtype == numpy.float32:
        return rng.random(shape, dtype=numpy.float32)
    return rng.integers(0, numpy.iinfo(dtype).max, size=shape, endpoint=True, dtype=dtype)


def tolerance(dtype):
    """The library's contract for `auto`: within 1 level of 8 bits."""
    return {numpy.uint8: 1, numpy.uint16: 257, numpy.float32: 1.0 / 255 + 1e-6}[numpy.dtype(dtype).type]


def max_difference(a, b):
    return float(numpy.max(numpy.abs(numpy.asarray(a, dtype=numpy.float64) - numpy.asarray(b, dtype=numpy.float64))))


def difference_as(tolerance, got, expected):
    """max_difference, or where `tolerance` (an entry of an op's "tolerance" in the
    registry) has colours_by_alpha, the library's premultiplied comparison: colours times
    alpha over the range (float: each image's own alpha; integers: the expected alpha), not
    compared where the expected alpha is at most least_compared_alpha of the range."""
    if not tolerance.get("colours_by_alpha"):
        return max_difference(got, expected)
    dtype = numpy.asarray(expected).dtype
    top = 1.0 if dtype.kind == "f" else float(numpy.iinfo(dtype).max)
    got = numpy.asarray(got, dtype=numpy.float64)
    expected = numpy.asarray(expected, dtype=numpy.float64)
    expected_alpha = expected[..., 3:4]
    got_alpha = got[..., 3:4] if dtype.kind == "f" else expected_alpha
    colours = numpy.abs(got[..., :3] * got_alpha - expected[..., :3] * expected_alpha) / top
    colours = numpy.where(expected_alpha <= tolerance["least_compared_alpha"] * top, 0.0, colours)
    return max(float(colours.max()), max_difference(got[..., 3], expected[..., 3]))


@pytest.fixture
def rng():
    return numpy.random.default_rng(12345)


@pytest.fixture
def gpu():
    if gpufilter.device_count() == 0:
        pytest.skip("no usable GPU: " + gpufilter.no_device_reason())


@pytest.fixture
def torch_cuda(gpu):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no CUDA device")
    return torch


@pytest.fixture
def cupy(gpu):
    return pytest.importorskip("cupy")


def cli_path():
    """The command-line tool of the same build, for comparing help and messages."""
    given = os.environ.get("GPUFILTER_CLI")
    if given and os.path.exists(given):
        return given
    return shutil.which("gpufilter")


@pytest.fixture(scope="session")
def image_files(tmp_path_factory):
    """20 PNG files of several formats and sizes, written by gpufilter.write (skipped where
    this process cannot load the image codecs)."""
    folder = tmp_path_factory.mktemp("inputs")
    rng = numpy.random.default_rng(7)
    paths = []
    for index in range(20):
        channels = (1, 3, 4)[index % 3]
        dtype = numpy.uint16 if index % 5 == 0 else numpy.uint8
        image = random_image(rng, 40 + index, 50 + 2 * index, channels, dtype)
        path = folder / ("image%02d.png" % index)
        try:
            gpufilter.write(path, image)
        except gpufilter.Error as error:
            pytest.skip("image files cannot be written in this process: %s" % error)
        paths.append(path)
    return paths
