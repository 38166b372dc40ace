#!/usr/bin/env python3
"""Blurs an image held as a chunked dask.array (a large scan, a Zarr store, a stack that
does not fit in memory) chunk by chunk, with the same pixels as the whole image at once.

  python3 python/examples/dask_array.py in.png out.png --sigma 4 --chunk 1024
"""
import argparse

import dask.array
from dask.diagnostics import ProgressBar

import gpufilter
import gpufilter.dask


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--sigma", type=float, default=2.0)
    parser.add_argument("--chunk", type=int, default=1024, help="chunk height and width in pixels")
    args = parser.parse_args()

    image = gpufilter.read(args.input)
    chunks = (args.chunk, args.chunk) + ((-1,) if image.ndim == 3 else ())
    soft = gpufilter.dask.filter_array(dask.array.from_array(image, chunks=chunks), "blur", sigma=args.sigma)
    print("each chunk reads %d x %d pixels of its neighbours" % gpufilter.dask.reach("blur", sigma=args.sigma))
    with ProgressBar():
        result = soft.compute()
    gpufilter.write(args.output, result, replace=True)


if __name__ == "__main__":
    main()
