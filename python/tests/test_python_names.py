"""Messages, help and names in Python's terms: keyword arguments instead of the tool's
options, "did you mean" for ops and keywords, and other libraries' border names."""
import inspect
import warnings

import numpy
import pytest

import gpufilter
from gpufilter import _ops, _registry

IMAGE = numpy.arange(8 * 9 * 3, dtype=numpy.uint8).reshape(8, 9, 3)


def _message(call):
    with pytest.raises((ValueError, TypeError)) as caught:
        call()
    return str(caught.value)


def test_messages_name_keywords_not_options():
    assert _message(lambda: gpufilter.blur(IMAGE, sigma="abc", device="cpu")) == "sigma expects a number, got 'abc'"
    assert _message(lambda: gpufilter.resize(IMAGE, device="cpu")) == "resize: give either size=WxH or scale=S"
    assert _message(lambda: gpufilter.box(IMAGE, size=3, radius=1, device="cpu")) == \
        "box: give size or radius, not both"
    assert _message(lambda: gpufilter.blur(IMAGE, sigma=[1, 2], device="cpu")) == \
        "sigma expects a number, got [1, 2]"
    assert "sigma_y" in _message(lambda: gpufilter.blur(IMAGE, sigma_y="x", device="cpu"))


@pytest.mark.parametrize("op", _registry.OPS, ids=lambda op: op.name)
def test_help_names_keywords_not_options(op):
    doc = getattr(gpufilter, op.name).__doc__
    assert "--" not in doc, doc
    if op.name == "blur":
        assert "anisotropic with sigma_y" in doc


def test_did_you_mean_a_keyword():
    assert _message(lambda: gpufilter.median(IMAGE, size=3)).endswith("did you mean 'radius'?")
    assert _message(lambda: gpufilter.blur(IMAGE, sigmaa=2)).startswith(
        "blur() got an unexpected keyword argument 'sigmaa'; did you mean 'sigma'")
    assert "did you mean 'border'?" in _message(lambda: gpufilter.blur(IMAGE, mode="mirror"))
    assert _message(lambda: gpufilter.invert(IMAGE, zzz=1)) == "invert() got an unexpected keyword argument 'zzz'"
    # the signature shows only the op's keywords
    assert all(p.kind != inspect.Parameter.VAR_KEYWORD for p in inspect.signature(gpufilter.blur).parameters.values())


def test_did_you_mean_an_op(tmp_path):
    with pytest.raises(AttributeError, match="did you mean 'blur'"):
        gpufilter.blurr
    with pytest.raises(ValueError, match="did you mean 'blur'"):
        gpufilter.operation("blurr")
    with pytest.raises(ValueError, match="did you mean 'blur'"):
        gpufilter.batch("blurr", [tmp_path / "a.png"], tmp_path)
    with pytest.raises(TypeError, match="did you mean 'sigma'"):
        gpufilter.batch("blur", [tmp_path / "a.png"], tmp_path, sigmaa=1)
    with pytest.raises(TypeError, match="did you mean 'suffix'"):
        gpufilter.batch("blur", [tmp_path / "a.png"], tmp_path, sufix="_soft")


def _box3(image, numpy_mode):
    """3x3 mean of `image` (float64) with numpy.pad's border `numpy_mode`."""
    padded = numpy.pad(image.astype(numpy.float64), ((1, 1), (1, 1)), mode=numpy_mode)
    height, width = image.shape
    return sum(padded[dy:dy + height, dx:dx + width] for dy in range(3) for dx in range(3)) / 9.0


# The modes as border.hpp defines them, under numpy.pad's names for the same rows.
NUMPY_PAD = {"reflect": "symmetric", "reflect101": "reflect", "replicate": "edge", "wrap": "wrap"}


@pytest.mark.parametrize("border", sorted(NUMPY_PAD))
def test_border_modes_are_numpy_pads(border, rng):
    image = rng.random((7, 6), dtype=numpy.float32)
    ours = gpufilter.box(image, size=3, border=border, device="cpu")
    assert numpy.abs(ours - _box3(image, NUMPY_PAD[border])).max() < 1e-5


@pytest.mark.parametrize("alias,ours", [("mirror", "reflect101"), ("symmetric", "reflect"), ("nearest", "replicate"),
                                        ("edge", "replicate"), ("reflect_101", "reflect101"),
                                        ("BORDER_REFLECT_101", "reflect101"), ("BORDER_REFLECT", "reflect"),
                                        ("grid-wrap", "wrap"), ("grid-mirror", "reflect"),
                                        ("Constant", "constant")])
def test_border_aliases(alias, ours, rng):
    image = rng.random((9, 8, 3), dtype=numpy.float32)
    assert numpy.array_equal(gpufilter.box(image, size=5, border=alias, device="cpu"),
                             gpufilter.box(image, size=5, border=ours, device="cpu"))


def test_border_modes_are_scipys(rng):
    ndimage = pytest.importorskip("scipy.ndimage")
    image = rng.random((7, 6), dtype=numpy.float32)
    for mode in ("mirror", "reflect", "nearest", "wrap"):
        expected = ndimage.uniform_filter(image.astype(numpy.float64), size=3, mode=mode)
        assert numpy.abs(gpufilter.box(image, size=3, border=mode, device="cpu") - expected).max() < 1e-5, mode


def test_unknown_border_lists_ours_and_suggests():
    message = _message(lambda: gpufilter.blur(IMAGE, border="reflekt"))
    assert message.startswith("unknown border 'reflekt'; use one of constant, replicate")
    assert "; did you mean 'reflect'" in message


def test_histogram_bins_are_numbers(rng):
    image = rng.integers(0, 256, (10, 12), dtype=numpy.uint8)
    histogram = gpufilter.histogram(image, bins=4, device="cpu")
    assert numpy.array_equal(histogram["bins"], [0, 64, 128, 192])
    assert histogram["bins"].dtype.kind == "f"
    assert numpy.array_equal(histogram["c0"], numpy.histogram(image, bins=4, range=(0, 256))[0])


def test_cpu_fallback_warns_once(monkeypatch):
    if gpufilter.device_count() > 0:
        pytest.skip("a GPU is present")
    monkeypatch.setattr(_ops, "_fallback_warned", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gpufilter.invert(IMAGE)
        gpufilter.invert(IMAGE)
        gpufilter.invert(IMAGE, device="cpu")
    assert len(caught) == 1 and caught[0].category is RuntimeWarning
    assert "no usable GPU" in str(caught[0].message) and caught[0].filename == __file__
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        monkeypatch.setattr(_ops, "_fallback_warned", False)
        gpufilter.invert(IMAGE, device="cpu")
    assert not caught
