"""Every op on NumPy arrays: the CPU path (CI's), strided views and out= without
copies, and the GPU round trip against the CPU where a GPU is present."""
import numpy
import pytest

import gpufilter
from gpufilter import _registry

from conftest import DTYPES, difference_as, random_image

CASES = [(op, fmt) for op in _registry.OPS for fmt in op.formats]


def _params(op):
    return {_registry.python_name(name): (tuple(v) if isinstance(v, list) else v)
            for name, v in gpufilter.operation(op.name)["test_params"].items()}


def _split(fmt):
    kind, channels = fmt.split("x")
    return DTYPES[kind], int(channels)


@pytest.mark.parametrize("op,fmt", CASES, ids=lambda v: v if isinstance(v, str) else v.name)
def test_every_op_and_format_on_the_cpu(op, fmt, rng):
    dtype, channels = _split(fmt)
    image = random_image(rng, 15, 17, channels, dtype)  # 15 rows: 3 planes for interleaved
    result = getattr(gpufilter, op.name)(image, device="cpu", **_params(op))
    if not op.gives_image:
        assert isinstance(result, dict) and result["table"].size > 0
        return
    assert isinstance(result, numpy.ndarray)
    if op.keeps_shape:
        assert result.shape == image.shape and result.dtype == image.dtype
    # A crop of a larger array (rows with a pitch of their own) gives the same result.
    big = random_image(rng, 40, 50, channels, dtype)
    big[5:20, 7:24] = image
    view = big[5:20, 7:24]
    assert not view.flags.c_contiguous
    again = getattr(gpufilter, op.name)(view, device="cpu", **_params(op))
    assert numpy.array_equal(result, again)


def test_two_dimensional_and_single_channel_shapes(rng):
    gray = random_image(rng, 20, 30, 0, numpy.uint8)
    out = gpufilter.blur(gray, sigma=1.5, device="cpu")
    assert out.shape == (20, 30)
    same = gpufilter.blur(gray[:, :, None], sigma=1.5, device="cpu")
    assert same.shape == (20, 30, 1)
    assert numpy.array_equal(out, same[:, :, 0])


def test_out_is_written_in_place(rng):
    image = random_image(rng, 24, 32, 4, numpy.uint8)
    out = numpy.zeros_like(image)
    returned = gpufilter.box(image, out=out, device="cpu")
    assert returned is out
    assert returned.__array_interface__["data"][0] == out.__array_interface__["data"][0]
    assert numpy.array_equal(out, gpufilter.box(image, device="cpu"))
    # into a window of a larger array, rows of its pitch
    canvas = numpy.zeros((50, 60, 4), numpy.uint8)
    gpufilter.box(image, out=canvas[3:27, 5:37], device="cpu")
    assert numpy.array_equal(canvas[3:27, 5:37], out)
    assert not canvas[:3].any() and not canvas[27:].any()


def test_non_pixel_strides_are_copied_for_input_refused_for_out(rng):
    image = random_image(rng, 16, 16, 4, numpy.uint8)
    rgb = image[:, :, :3]  # a channel slice: pixels 4 bytes apart, 3 channels
    assert numpy.array_equal(gpufilter.invert(rgb, device="cpu"), 255 - rgb)
    flipped = image[::-1]
    assert numpy.array_equal(gpufilter.invert(flipped, channels="rgba", device="cpu"), 255 - flipped)
    with pytest.raises(ValueError, match="strides"):
        gpufilter.invert(image, out=numpy.zeros((16, 16, 8), numpy.uint8)[:, :, ::2], device="cpu")


def test_exact_ops_give_exact_results(rng):
    image = random_image(rng, 31, 29, 3, numpy.uint16)
    assert numpy.array_equal(gpufilter.invert(image, device="cpu"), 65535 - image)
    assert numpy.array_equal(gpufilter.copy(image, device="cpu"), image)
    assert numpy.array_equal(gpufilter.flip(image, axis="h", device="cpu"), image[:, ::-1])
    assert numpy.array_equal(gpufilter.transpose(image, device="cpu"), image.transpose(1, 0, 2))
    cropped = gpufilter.crop(image, geometry="10x5+3+4", device="cpu")
    assert numpy.array_equal(cropped, image[4:9, 3:13])


def test_a_flat_image_stays_flat():
    flat = numpy.full((20, 20, 3), 77, numpy.uint8)
    for sigma in (0.5, 2.0, 8.0):
        assert numpy.array_equal(gpufilter.blur(flat, sigma=sigma, device="cpu"), flat)


def test_output_shape_of_geometry_ops(rng):
    image = random_image(rng, 30, 40, 4, numpy.float32)
    assert gpufilter.rotate(image, angle=90, device="cpu").shape == (40, 30, 4)
    assert gpufilter.resize(image, size="20x15", device="cpu").shape == (15, 20, 4)
    assert gpufilter.resize(image, size=(20, 15), device="cpu").shape == (15, 20, 4)


def test_stats_and_histogram_are_dicts(rng):
    image = random_image(rng, 25, 35, 3, numpy.uint8)
    stats = gpufilter.stats(image, device="cpu")
    assert numpy.allclose(stats["min"], image.reshape(-1, 3).min(axis=0))
    assert numpy.allclose(stats["max"], image.reshape(-1, 3).max(axis=0))
    assert numpy.allclose(stats["mean"], image.reshape(-1, 3).mean(axis=0))
    assert stats["table"].shape[0] == 3
    histogram = gpufilter.histogram(image, device="cpu")
    table = histogram["table"]
    assert table.shape == (256, 3)
    assert numpy.array_equal(table.sum(axis=0), [25 * 35] * 3)
    assert numpy.array_equal(table[:, 0], numpy.bincount(image[:, :, 0].ravel(), minlength=256))


def test_torch_cpu_tensors_stay_tensors(rng):
    torch = pytest.importorskip("torch")
    image = torch.from_numpy(random_image(rng, 12, 14, 3, numpy.uint8))
    out = gpufilter.invert(image, device="cpu")
    assert isinstance(out, torch.Tensor) and out.device.type == "cpu"
    assert torch.equal(out, 255 - image)


@pytest.mark.parametrize("op,fmt", CASES, ids=lambda v: v if isinstance(v, str) else v.name)
def test_gpu_round_trip_matches_the_cpu(op, fmt, rng, gpu):
    dtype, channels = _split(fmt)
    image = random_image(rng, 36, 45, channels, dtype)
    function = getattr(gpufilter, op.name)
    cpu = function(image, device="cpu", **_params(op))
    gpu_result = function(image, device="gpu", **_params(op))
    if not op.gives_image:
        for column in cpu["columns"]:
            if column.endswith(("_x", "_y")):
                continue  # where several pixels tie for the extreme, either position is right
            assert numpy.allclose(gpu_result[column], cpu[column], rtol=1e-4, atol=1e-3), column
        planes = image.reshape(image.shape[0], image.shape[1], -1)
        for extreme in ("min", "max"):
            if extreme + "_x" in gpu_result:
                for c in range(planes.shape[2]):
                    x, y = int(gpu_result[extreme + "_x"][c]), int(gpu_result[extreme + "_y"][c])
                    assert planes[y, x, c] == gpu_result[extreme][c]
        return
    tolerance = gpufilter.operation(op.name)["tolerance"][fmt]
    assert gpu_result.shape == cpu.shape
    assert difference_as(tolerance, gpu_result, cpu) <= tolerance["max_abs"] + 1e-6


def test_premultiplied_sharpening_is_judged_as_the_library_judges_it():
    """The registry says where colours are compared premultiplied (sharpen's default alpha
    on RGBA), and difference_as weighs them by alpha as the library's own checks do."""
    tolerance = gpufilter.operation("sharpen")["tolerance"]
    assert tolerance["u16x4"]["colours_by_alpha"] and tolerance["u16x4"]["least_compared_alpha"] == 0.002
    assert not tolerance["u16x3"].get("colours_by_alpha")
    expected = numpy.array([[[60000, 0, 0, 1000], [1000, 0, 0, 65535], [50000, 0, 0, 120]]], dtype=numpy.uint16)
    got = numpy.array([[[60040, 0, 0, 1000], [1000, 0, 0, 65535], [0, 0, 0, 120]]], dtype=numpy.uint16)
    assert difference_as(tolerance["u16x4"], got, expected) == pytest.approx(40 * 1000 / 65535)
    got[0, 1, 0] = 1003
    assert difference_as(tolerance["u16x4"], got, expected) == 3.0
    expected_f = numpy.array([[[1779.11, 0, 0, 0.0100013]]], dtype=numpy.float32)
    got_f = numpy.array([[[1779.32, 0, 0, 0.0100001]]], dtype=numpy.float32)
    assert difference_as(tolerance["f32x4"], got_f, expected_f) < 1e-4
    assert difference_as({"max_abs": 1e-4}, got_f, expected_f) > 0.2
