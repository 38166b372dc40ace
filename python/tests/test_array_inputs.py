"""The arrays Python users hand over: float64 (SciPy's and scikit-image's default),
stacks (N, H, W, C), empty ones, big-endian ones (FITS files), shapes beyond the C
interface's int, malformed __cuda_array_interface__; and the shapes that come back."""
import numpy
import pytest

import gpufilter

from conftest import random_image


def test_float64_is_computed_as_float32_and_given_back_as_float64(rng):
    image = rng.random((20, 30, 3))
    result = gpufilter.blur(image, sigma=1.5, device="cpu")
    assert result.dtype == numpy.float64 and result.shape == image.shape
    expected = gpufilter.blur(image.astype(numpy.float32), sigma=1.5, device="cpu")
    assert numpy.array_equal(result, expected.astype(numpy.float64))
    out = numpy.zeros_like(image)
    assert gpufilter.blur(image, sigma=1.5, device="cpu", out=out) is out
    assert numpy.array_equal(out, result)
    stats = gpufilter.stats(image, device="cpu")
    assert numpy.allclose(stats["mean"], image.reshape(-1, 3).mean(axis=0), atol=1e-6)
    # an op whose output is not float keeps its own type
    assert gpufilter.convert(image, depth="u8", device="cpu").dtype == numpy.uint8


def test_float64_is_written_as_float32(rng, tmp_path):
    image = rng.random((6, 7, 3))
    path = tmp_path / "float.tif"
    try:
        gpufilter.write(path, image)
    except gpufilter.Error as error:
        pytest.skip("image files cannot be written in this process: %s" % error)
    assert numpy.array_equal(gpufilter.read(path), image.astype(numpy.float32))


def test_other_dtypes_say_how_to_convert():
    with pytest.raises(TypeError, match="uint8, uint16 and float32 pixels .and float64"):
        gpufilter.blur(numpy.zeros((4, 4), numpy.int32), device="cpu")


def test_a_stack_runs_image_by_image(rng):
    stack = random_image(rng, 4 * 12, 10, 3, numpy.uint8).reshape(4, 12, 10, 3)
    result = gpufilter.blur(stack, sigma=1.0, device="cpu")
    assert result.shape == stack.shape and result.dtype == stack.dtype
    for index in range(4):
        assert numpy.array_equal(result[index], gpufilter.blur(stack[index], sigma=1.0, device="cpu"))
    out = numpy.zeros_like(stack)
    assert gpufilter.blur(stack, sigma=1.0, device="cpu", out=out) is out
    assert numpy.array_equal(out, result)
    gray = gpufilter.gray(stack, device="cpu")
    assert gray.shape == (4, 12, 10)
    resized = gpufilter.resize(stack, size=(5, 6), exact=True, device="cpu")
    assert resized.shape == (4, 6, 5, 3)
    stats = gpufilter.stats(stack, device="cpu")
    assert isinstance(stats, list) and len(stats) == 4
    assert numpy.allclose(stats[2]["max"], stack[2].reshape(-1, 3).max(axis=0))
    with pytest.raises(ValueError, match="empty stack"):
        gpufilter.blur(stack[:0], device="cpu")


@pytest.mark.parametrize("shape", [(0, 5), (5, 0), (0, 5, 3), (0, 0)])
def test_an_empty_image_is_a_clear_value_error(shape):
    with pytest.raises(ValueError, match=r"at least one pixel; got an empty array of shape \(%d, %d" % shape[:2]):
        gpufilter.blur(numpy.zeros(shape, numpy.uint8), device="cpu")
    with pytest.raises(ValueError, match="at least one pixel"):
        gpufilter.stats(numpy.zeros(shape, numpy.float32), device="cpu")


def test_shapes_are_kept(rng):
    rgb = random_image(rng, 9, 11, 3, numpy.uint8)
    assert gpufilter.gray(rgb, device="cpu").shape == (9, 11)             # as cv2.cvtColor
    assert gpufilter.gray(rgb[..., :3].copy(), device="cpu").ndim == 2
    rgba = random_image(rng, 9, 11, 4, numpy.uint8)
    assert gpufilter.gray(rgba, device="cpu").shape == (9, 11)
    flat = random_image(rng, 9, 11, 0, numpy.uint16)
    assert gpufilter.resize(flat, size=(22, 18), exact=True, device="cpu").shape == (18, 22)
    assert gpufilter.rotate(flat, angle=90, device="cpu").shape == (11, 9)
    one = flat[:, :, None]
    assert gpufilter.resize(one, size=(22, 18), exact=True, device="cpu").shape == (18, 22, 1)
    planes = gpufilter.planar(rgb, device="cpu")
    assert planes.shape == (27, 11)
    assert gpufilter.interleaved(planes, channels=3, device="cpu").shape == (9, 11, 3)


@pytest.mark.parametrize("dtype", [">u2", ">f4", ">f8"])
def test_big_endian_arrays_are_read_in_their_byte_order(dtype, tmp_path):
    values = numpy.array([[256, 1], [2, 300]]) if dtype == ">u2" else numpy.array([[0.25, 0.5], [0.75, 1.0]])
    big = values.astype(dtype)
    assert not big.dtype.isnative
    native = values.astype(big.dtype.newbyteorder("="))
    assert gpufilter.stats(big, device="cpu")["max"][0] == native.max()
    result = gpufilter.invert(big, device="cpu")
    assert result.dtype.isnative and numpy.array_equal(result, gpufilter.invert(native, device="cpu"))
    assert result.dtype == native.dtype
    if dtype == ">f8":  # computed as float32, then copied into out by NumPy, which swaps the bytes
        out = numpy.zeros((2, 2), dtype)
        gpufilter.invert(native, out=out, device="cpu")
        assert numpy.array_equal(out, result)
    else:  # the library would write native bytes into it
        with pytest.raises(TypeError, match="byte order"):
            gpufilter.invert(native, out=numpy.zeros((2, 2), dtype), device="cpu")
    if dtype == ">u2":
        path = tmp_path / "big.png"
        try:
            gpufilter.write(path, big)
        except gpufilter.Error as error:
            pytest.skip("image files cannot be written in this process: %s" % error)
        assert numpy.array_equal(gpufilter.read(path), native)


def test_sides_beyond_the_c_interface_are_refused():
    """A side of 2**32 + 10 would reach the library as 10 (int32_t)."""
    tall = numpy.broadcast_to(numpy.zeros((1, 1), numpy.uint8), (2**32 + 10, 1))
    with pytest.raises(ValueError, match="at most 2147483647 pixels wide and high"):
        gpufilter.invert(tall, device="cpu")
    wide = numpy.broadcast_to(numpy.zeros((1, 1), numpy.uint8), (1, 2**31))
    with pytest.raises(ValueError, match="at most 2147483647"):
        gpufilter.stats(wide, device="cpu")


class _Interface:
    def __init__(self, interface):
        self.__cuda_array_interface__ = interface


GOOD = {"shape": (4, 4), "typestr": "|u1", "data": (0, False), "version": 3}


@pytest.mark.parametrize("interface,words", [
    ({"typestr": "|u1", "data": (0, False)}, "no 'shape'"),
    ({"shape": (4, 4), "data": (0, False)}, "no 'typestr'"),
    ({"shape": (4, 4), "typestr": "|u1"}, "no 'data'"),
    (dict(GOOD, data=(0,)), "data must be"),
    (dict(GOOD, data=("x", False)), "data must be"),
    (dict(GOOD, shape=(4, "4")), "shape must be a tuple of integers"),
    (dict(GOOD, shape=4), "shape must be a tuple of integers"),
    (dict(GOOD, typestr=3), "typestr must be a string"),
    (dict(GOOD, typestr=""), "typestr must be a string"),
    (dict(GOOD, strides=(4,)), "differ in length"),
    ([1, 2], "not a dict"),
], ids=lambda value: value if isinstance(value, str) else None)
def test_a_malformed_cuda_array_interface_is_a_type_error(interface, words):
    with pytest.raises(TypeError, match="_Interface's __cuda_array_interface__ is malformed: .*" + words):
        gpufilter.invert(_Interface(interface))
