#!/usr/bin/env python3
"""Shows that CUDA arrays go through gpufilter without a host copy: the tensors are made on
the GPU, filtered there (into out= and into new tensors, from crops of a larger tensor),
and only a checksum comes back. Run under Nsight Systems; its memory-operation report
then shows no host<->device transfer of image size (only the filters' few-KB mask
uploads to constant memory):

  nsys profile -t cuda -o /tmp/zero-copy --force-overwrite true python3 python/examples/zero_copy.py
  nsys stats -r cuda_gpu_mem_size_sum /tmp/zero-copy.nsys-rep
"""
import torch

import gpufilter

HEIGHT, WIDTH = 4320, 7680  # 8K RGBA: 133 MB a copy, easy to spot


def main():
    image = torch.randint(0, 256, (HEIGHT, WIDTH, 4), dtype=torch.uint8, device="cuda")
    out = torch.empty_like(image)
    returned = gpufilter.blur(image, sigma=2.0, out=out)
    assert returned is out and returned.data_ptr() == out.data_ptr()
    crop = image[1000:3000, 2000:6000]
    window = out[100:2100, 100:4100]
    before = window.data_ptr()
    gpufilter.edge(crop, out=window)
    assert window.data_ptr() == before
    fresh = gpufilter.box(crop, size="5x5")
    assert fresh.device == image.device
    stats = gpufilter.stats(image)  # a data op: only its small table comes back
    torch.cuda.synchronize()
    print("out= kept its memory (%#x); crop %s -> window %s; stats mean %s" % (
        out.data_ptr(), tuple(crop.shape), tuple(window.shape), stats["mean"]))


if __name__ == "__main__":
    main()
