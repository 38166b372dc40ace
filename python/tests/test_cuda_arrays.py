"""CUDA arrays (PyTorch, CuPy, any __cuda_array_interface__ or __dlpack__ object): results
of the same library on the same device, no host copy, on the caller's stream, out= by
pointer identity, crops of larger tensors without a copy. Skipped without a GPU and
without the array library."""
import numpy
import pytest

import gpufilter

from conftest import max_difference, random_image

FORMATS = [(numpy.uint8, 4), (numpy.uint8, 1), (numpy.uint8, 3), (numpy.uint16, 3), (numpy.float32, 4),
           (numpy.float32, 0)]


def _tolerance(dtype):
    return {numpy.uint8: 1, numpy.uint16: 257, numpy.float32: 1.0 / 255 + 1e-6}[dtype]


@pytest.mark.parametrize("dtype,channels", FORMATS)
def test_torch_in_torch_out(torch_cuda, rng, dtype, channels):
    torch = torch_cuda
    host = random_image(rng, 61, 83, channels, dtype)
    if dtype == numpy.uint16:  # NumPy's uint16 through int16: older PyTorch converts no uint16
        tensor = torch.from_numpy(host.view(numpy.int16)).cuda().view(torch.uint16)
    else:
        tensor = torch.from_numpy(host).cuda()
    result = gpufilter.blur(tensor, sigma=1.7)
    assert isinstance(result, torch.Tensor) and result.device == tensor.device and result.dtype == tensor.dtype
    expected = gpufilter.blur(host, sigma=1.7, device="cpu")
    got = result.cpu().numpy() if dtype != numpy.uint16 else result.view(torch.int16).cpu().numpy().view(numpy.uint16)
    assert max_difference(got, expected) <= _tolerance(dtype)


def test_torch_out_is_the_same_memory(torch_cuda, rng):
    torch = torch_cuda
    tensor = torch.from_numpy(random_image(rng, 64, 64, 4, numpy.uint8)).cuda()
    out = torch.empty_like(tensor)
    returned = gpufilter.box(tensor, size="5x5", out=out)
    assert returned is out and returned.data_ptr() == out.data_ptr()
    assert torch.equal(out, gpufilter.box(tensor, size="5x5"))


def test_torch_crop_of_a_larger_tensor_without_copy(torch_cuda, rng):
    torch = torch_cuda
    big = torch.from_numpy(random_image(rng, 300, 400, 3, numpy.uint8)).cuda()
    crop = big[50:150, 60:260]
    assert not crop.is_contiguous()
    canvas = torch.zeros_like(big)
    window = canvas[10:110, 20:220]
    gpufilter.edge(crop, out=window)
    expected = gpufilter.edge(crop.contiguous())
    # (another alignment may take another kernel: equal within the op's contract)
    assert max_difference(window.cpu().numpy(), expected.cpu().numpy()) <= 1
    assert int(canvas[:10].abs().sum()) == 0 and int(canvas[110:].abs().sum()) == 0


def test_torch_current_stream_is_honoured(torch_cuda, rng):
    torch = torch_cuda
    tensor = torch.from_numpy(random_image(rng, 512, 512, 4, numpy.uint8)).cuda()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        # queued behind a slow kernel on this stream: the op must wait for it
        tensor.mul_(1)
        result = gpufilter.invert(tensor, channels="rgba")
    stream.synchronize()
    assert torch.equal(result, 255 - tensor)
    explicit = torch.cuda.Stream()
    result = gpufilter.invert(tensor, channels="rgba", stream=explicit)
    explicit.synchronize()
    assert torch.equal(result, 255 - tensor)


def test_torch_data_ops(torch_cuda, rng):
    torch = torch_cuda
    host = random_image(rng, 100, 120, 3, numpy.uint8)
    stats = gpufilter.stats(torch.from_numpy(host).cuda())
    assert numpy.allclose(stats["max"], host.reshape(-1, 3).max(axis=0))
    assert numpy.allclose(stats["mean"], host.reshape(-1, 3).mean(axis=0))


def test_torch_output_shape_ops(torch_cuda, rng):
    torch = torch_cuda
    host = random_image(rng, 40, 70, 4, numpy.uint8)
    rotated = gpufilter.rotate(torch.from_numpy(host).cuda(), angle=90)
    assert tuple(rotated.shape) == (70, 40, 4)
    assert numpy.array_equal(rotated.cpu().numpy(), gpufilter.rotate(host, angle=90, device="cpu"))


def test_host_array_device_cpu_refuses_cuda(torch_cuda, rng):
    torch = torch_cuda
    with pytest.raises(ValueError, match="device='cpu'"):
        gpufilter.blur(torch.zeros((8, 8), dtype=torch.uint8, device="cuda"), device="cpu")
    with pytest.raises(ValueError, match="same memory"):
        gpufilter.blur(torch.zeros((8, 8), dtype=torch.uint8, device="cuda"), out=numpy.zeros((8, 8), numpy.uint8))


@pytest.mark.parametrize("dtype,channels", FORMATS)
def test_cupy_in_cupy_out(cupy, rng, dtype, channels):
    host = random_image(rng, 61, 83, channels, dtype)
    array = cupy.asarray(host)
    result = gpufilter.blur(array, sigma=2.5)
    assert isinstance(result, cupy.ndarray) and result.device.id == array.device.id and result.dtype == array.dtype
    expected = gpufilter.blur(host, sigma=2.5, device="cpu")
    assert max_difference(cupy.asnumpy(result), expected) <= _tolerance(dtype)


def test_cupy_out_crop_and_stream(cupy, rng):
    big = cupy.asarray(random_image(rng, 200, 300, 4, numpy.uint8))
    crop = big[20:120, 30:230]
    out = cupy.empty((100, 200, 4), cupy.uint8)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        returned = gpufilter.sharpen(crop, out=out)
    stream.synchronize()
    assert returned is out and returned.data.ptr == out.data.ptr
    expected = gpufilter.sharpen(cupy.ascontiguousarray(crop))
    assert max_difference(cupy.asnumpy(out), cupy.asnumpy(expected)) <= 1


class _Interface:
    """An array known only by __cuda_array_interface__ (as Numba's or JAX's would be)."""

    def __init__(self, array):
        self.array = array
        self.__cuda_array_interface__ = array.__cuda_array_interface__


def test_cuda_array_interface_alone(cupy, rng):
    host = random_image(rng, 50, 60, 3, numpy.uint8)
    source = _Interface(cupy.asarray(host))
    out = cupy.empty_like(source.array)
    gpufilter.invert(source, out=_Interface(out))
    cupy.cuda.get_current_stream().synchronize()
    assert numpy.array_equal(cupy.asnumpy(out), 255 - host)


class _DLPackOnly:
    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def test_dlpack_alone(torch_cuda, rng):
    torch = torch_cuda
    host = random_image(rng, 50, 60, 4, numpy.uint8)
    tensor = torch.from_numpy(host).cuda()
    out = torch.empty_like(tensor)
    gpufilter.invert(_DLPackOnly(tensor), out=out, channels="rgba")
    torch.cuda.synchronize()
    assert numpy.array_equal(out.cpu().numpy(), 255 - host)
