"""Python threads calling the library at once: each with its own sigma (and so its own
mask, tile and shared-memory size on the GPU), every result equal to the same call made
alone. ctypes releases the GIL around each call, so the calls really overlap; on the GPU
machine they run on the GPU (device 'auto'), elsewhere on the CPU path."""
import threading
import warnings

import numpy

import gpufilter

from conftest import random_image


def _blur(image, sigma):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the one-time CPU fallback notice
        return gpufilter.blur(image, sigma=sigma)


def test_threads_with_different_sigmas_give_what_each_gives_alone(rng):
    images = [random_image(rng, 120, 170, 4, numpy.uint8) for _ in range(8)]
    sigmas = [0.4 + i * 1.1 for i in range(8)]  # 0.4 .. 8.1: radii 2 .. 25
    alone = [_blur(image, sigma) for image, sigma in zip(images, sigmas)]
    results = [[None] * 4 for _ in range(8)]
    errors = []
    start = threading.Barrier(8)

    def work(t):
        try:
            start.wait()
            for round_ in range(4):
                results[t][round_] = _blur(images[t], sigmas[t])
        except Exception as error:  # reported below, with its thread
            errors.append((t, error))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    for t in range(8):
        for round_ in range(4):
            numpy.testing.assert_array_equal(results[t][round_], alone[t], err_msg="thread %d round %d" % (t, round_))
