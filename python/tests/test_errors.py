"""Bad input raises ValueError / TypeError with the command-line tool's message (in
Python's names: test_python_names.py)."""
import subprocess
import warnings

import numpy
import pytest

import gpufilter

from conftest import cli_path

IMAGE = numpy.zeros((8, 8, 3), numpy.uint8)


def test_out_of_range_parameter():
    with pytest.raises(ValueError, match=r"sigma") as caught:
        gpufilter.blur(IMAGE, sigma=1000, device="cpu")
    assert "100" in str(caught.value)


def test_messages_are_the_clis(tmp_path):
    cli = cli_path()
    if cli is None:
        pytest.skip("the gpufilter tool is not on PATH and GPUFILTER_CLI is not set")
    with pytest.raises(ValueError) as caught:
        gpufilter.blur(IMAGE, sigma=1000, device="cpu")
    shown = subprocess.run([cli, "blur", "in.png", "out.png", "--sigma", "1000"], capture_output=True,
                           text=True, cwd=tmp_path).stderr
    assert str(caught.value) in shown
    with pytest.raises(ValueError) as caught:
        gpufilter.edge(IMAGE, operator="nope", device="cpu")
    shown = subprocess.run([cli, "edge", "in.png", "out.png", "--operator", "nope"], capture_output=True,
                           text=True, cwd=tmp_path).stderr
    assert str(caught.value) in shown


def test_wrong_kind_of_value():
    with pytest.raises(ValueError, match="expects a number"):
        gpufilter.blur(IMAGE, sigma="soft", device="cpu")
    with pytest.raises(TypeError, match="expects a number"):
        gpufilter.blur(IMAGE, sigma=[1, 2], device="cpu")
    with pytest.raises(TypeError):
        gpufilter.blur(IMAGE, no_such_param=1)


def test_unknown_variant_border_and_device():
    with pytest.raises(ValueError, match="unknown variant 'fastest' for blur; use one of"):
        gpufilter.blur(IMAGE, variant="fastest")
    with pytest.raises(ValueError, match="unknown border 'mirrors'; use one of"):
        gpufilter.blur(IMAGE, border="mirrors", device="cpu")
    with pytest.raises(ValueError, match="unknown device"):
        gpufilter.blur(IMAGE, device="tpu")
    with pytest.raises(ValueError, match="border_value needs border 'constant'"):
        gpufilter.blur(IMAGE, border_value=3, device="cpu")


def test_border_value_must_fit_the_pixels():
    with pytest.raises(ValueError, match="whole number"):
        gpufilter.blur(IMAGE, border="constant", border_value=0.5, device="cpu")
    with pytest.raises(ValueError, match="out of range"):
        gpufilter.blur(IMAGE, border="constant", border_value=(0, 0, 300), device="cpu")
    out = gpufilter.blur(IMAGE, border="constant", border_value=(255, 0, 0), device="cpu")
    assert out[0, 0, 0] > 0 and out[0, 0, 1] == 0
    gpufilter.blur(IMAGE.astype(numpy.float32), border="constant", border_value=0.5, device="cpu")


def test_unsupported_arrays_raise_type_error():
    with pytest.raises(TypeError, match="uint8, uint16 and float32"):
        gpufilter.blur(numpy.zeros((8, 8), numpy.int32), device="cpu")
    with pytest.raises(TypeError, match="NumPy arrays"):
        gpufilter.blur([[1, 2], [3, 4]])
    with pytest.raises(ValueError, match=r"\(H, W\) or \(H, W, C\)"):
        gpufilter.blur(numpy.zeros((8, 8, 2), numpy.uint8), device="cpu")
    with pytest.raises(ValueError, match=r"\(H, W\) or \(H, W, C\)"):
        gpufilter.blur(numpy.zeros((8,), numpy.uint8), device="cpu")


def test_ops_that_take_fewer_formats_say_so():
    with pytest.raises(TypeError, match="does not take f32x3 pixels"):
        gpufilter.equalize(numpy.zeros((8, 8, 3), numpy.float32), device="cpu")


def test_bad_out():
    with pytest.raises(ValueError, match="gives a 8x8 u8x3 image for this input; out is 8x7 u8x3"):
        gpufilter.blur(IMAGE, out=numpy.zeros((7, 8, 3), numpy.uint8), device="cpu")
    readonly = numpy.zeros_like(IMAGE)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        gpufilter.blur(IMAGE, out=readonly, device="cpu")


def test_gpu_without_a_gpu():
    if gpufilter.device_count() > 0:
        pytest.skip("a GPU is present")
    with pytest.raises(gpufilter.NoDeviceError, match="no usable GPU"):
        gpufilter.blur(IMAGE, device="gpu")
    assert issubclass(gpufilter.NoDeviceError, gpufilter.Error)
    # auto falls back to the CPU, as the CLI does (with a warning: test_python_names.py)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert gpufilter.blur(IMAGE).shape == IMAGE.shape
