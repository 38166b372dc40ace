#!/usr/bin/env python3
"""gpufilter from Python, measured on a GPU machine, in one run:

1. per-call overhead: back-to-back calls on a 64x64 u8x4 image in a torch tensor (and a
   CuPy array), against the same loop in C++ (gpufilter-call-overhead);
2. an 8K (7680x4320) u8x4 blur at its defaults (gpufilter.blur(tensor): sigma 2, 13x13,
   premultiplied alpha) through a torch tensor, one call at a time and back to back,
   against gpufilter-bench's default row for the same case (blur/default/u8x4/8K);
3. the same Gaussian by torchvision's gaussian_blur, CuPy's gaussian_filter (GPU) and
   OpenCV's GaussianBlur (CPU) on the same pixels, where those are installed (they
   filter the four channels alone: their max_diff includes the alpha's weighting).

GPU times are medians of CUDA-event timings with the L2 cache flushed before each run,
as gpufilter-bench times. Prints a table; writes DIR/bench_python.json and a bar chart
DIR/bench_python.svg.

  python3 bench/python/bench_python.py --build-dir build --out bench-python
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="folder for bench_python.json and bench_python.svg")
    parser.add_argument("--build-dir", default=os.environ.get("GPUFILTER_BUILD_DIR", "build"),
                        help="the CMake build folder (its python/ holds the package; default: $GPUFILTER_BUILD_DIR "
                             "or build)")
    parser.add_argument("--runs", type=int, default=20, help="timed runs per 8K case (default 20)")
    parser.add_argument("--calls", type=int, default=20000, help="calls for the overhead loop (default 20000)")
    parser.add_argument("--skip-cpp", action="store_true", help="do not run the C++ baselines")
    return parser.parse_args()


ARGS = parse_args()
sys.path.insert(0, os.path.join(os.path.abspath(ARGS.build_dir), "python"))
import numpy  # noqa: E402
import torch  # noqa: E402

import gpufilter  # noqa: E402

WIDTH, HEIGHT = 7680, 4320


def optional(name):
    try:
        return __import__(name, fromlist=["_"])
    except Exception:  # not installed, or broken: that peer is left out
        return None


class Flusher:
    """Writes a buffer larger than any L2 (H100: 50 MB) between runs."""

    def __init__(self):
        self.buffer = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")

    def __call__(self):
        self.buffer.fill_(1)


def gpu_median_us(run, runs, flush):
    """Median CUDA-event time of run() on torch's current stream, L2 flushed first."""
    for _ in range(3):
        run()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        flush()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)
    return statistics.median(times)


def cpu_median_us(run, runs):
    run()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1e6)
    return statistics.median(times)


def overhead(calls):
    """Python call overhead on 64x64 u8x4: wall time of back-to-back calls."""
    rows = []
    image = torch.randint(0, 256, (64, 64, 4), dtype=torch.uint8, device="cuda")
    out = torch.empty_like(image)
    cases = [("torch, out=", lambda: gpufilter.blur(image, out=out)),
             ("torch, new tensor", lambda: gpufilter.blur(image))]
    cupy = optional("cupy")
    if cupy is not None:
        array = cupy.asarray(image)
        out_array = cupy.empty_like(array)
        cases.append(("cupy, out=", lambda: gpufilter.blur(array, out=out_array)))
    for label, run in cases:
        for _ in range(500):
            run()
        torch.cuda.synchronize()
        if cupy is not None:
            cupy.cuda.Device().synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            run()
        torch.cuda.synchronize()
        if cupy is not None:
            cupy.cuda.Device().synchronize()
        rows.append({"case": "python " + label, "us_per_call": (time.perf_counter() - start) * 1e6 / calls})
    return rows


def cpp_overhead(calls):
    program = os.path.join(ARGS.build_dir, "bench", "python", "gpufilter-call-overhead")
    if ARGS.skip_cpp or not os.path.exists(program):
        return None
    result = subprocess.run([program, "blur", "64", "64", str(calls)], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)["us_per_call"]


def cpp_bench_8k():
    """gpufilter-bench's median for its default row blur/default/u8x4/8K, in microseconds."""
    program = os.path.join(ARGS.build_dir, "bench", "gpufilter-bench")
    if ARGS.skip_cpp or not os.path.exists(program):
        return None
    out = os.path.join(ARGS.out, "cpp_bench_blur.json")
    subprocess.run([program, "--ops=blur", "--sizes=8K", "--benchmark_filter=^blur/default/u8x4/8K",
                    "--benchmark_out=" + out, "--benchmark_out_format=json"], check=True, capture_output=True)
    with open(out) as report:
        for row in json.load(report)["benchmarks"]:
            if row["name"].startswith("blur/default/u8x4/8K"):
                return row["median_us"]
    return None


def back_to_back_us(run, calls=20):
    """Time per call of `calls` calls queued back to back between two events."""
    for _ in range(3):
        run()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        run()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1000.0 / calls


def number_default(param):
    """A parameter's default as the op takes it: the registry's value, or where that depends
    on other parameters (blur's sigma, which --geometry may give instead) the number its
    help shows, the value taken without them; None where that is not a number."""
    if param.default is not None:
        return param.default
    try:
        return float(param.default_text)
    except ValueError:
        return None


def blur_cases(runs):
    """The 8K u8x4 blur at its defaults by gpufilter and its peers, on the same pixels."""
    blur = next(op for op in gpufilter._registry.OPS if op.name == "blur")
    defaults = {param.name: number_default(param) for param in blur.params}
    sigma = float(defaults["sigma"])
    radius = int(defaults["radius"] or 0) or int(-(-3 * sigma // 1))
    image = torch.randint(0, 256, (HEIGHT, WIDTH, 4), dtype=torch.uint8, device="cuda")
    out = torch.empty_like(image)
    flush = Flusher()
    rows = [{"case": "gpufilter blur (torch tensor, out=)",
             "us": gpu_median_us(lambda: gpufilter.blur(image, out=out), runs, flush)},
            {"case": "gpufilter blur (torch tensor, new output)",
             "us": gpu_median_us(lambda: gpufilter.blur(image), runs, flush)},
            {"case": "gpufilter blur (out=, 20 calls back to back)",
             "us": back_to_back_us(lambda: gpufilter.blur(image, out=out))}]
    reference = gpufilter.blur(image).cpu().numpy()

    functional = optional("torchvision.transforms.functional")
    if functional is not None:
        chw = image.permute(2, 0, 1).contiguous()
        size = 2 * radius + 1
        run = lambda: functional.gaussian_blur(chw, [size, size], [sigma, sigma])  # noqa: E731
        rows.append({"case": "torchvision gaussian_blur", "us": gpu_median_us(run, runs, flush),
                     "max_diff": _diff(run().permute(1, 2, 0).cpu().numpy(), reference)})
    ndimage = optional("cupyx.scipy.ndimage")
    if ndimage is not None:
        import cupy
        array = cupy.asarray(image)  # the tensor's own memory, through __cuda_array_interface__

        def run():
            return ndimage.gaussian_filter(array, sigma=(sigma, sigma, 0), truncate=radius / sigma, mode="mirror")
        rows.append({"case": "cupyx gaussian_filter", "us": gpu_median_us(run, runs, flush),
                     "max_diff": _diff(cupy.asnumpy(run()), reference)})
    cv2 = optional("cv2")
    if cv2 is not None:
        host = image.cpu().numpy()
        size = 2 * radius + 1
        run = lambda: cv2.GaussianBlur(host, (size, size), sigma, borderType=cv2.BORDER_REFLECT_101)  # noqa: E731
        rows.append({"case": "OpenCV GaussianBlur (CPU, %d threads)" % cv2.getNumThreads(),
                     "us": cpu_median_us(run, max(3, runs // 4)), "max_diff": _diff(run(), reference)})
    return rows


def _diff(a, b):
    return float(numpy.max(numpy.abs(a.astype(numpy.int32) - b.astype(numpy.int32))))


def write_svg(path, rows):
    """A horizontal bar chart of the 8K times (log scale), no plotting library needed."""
    import math
    width, bar, left = 760, 26, 300
    height = 40 + bar * len(rows) + 30
    top = max(r["us"] for r in rows)
    low = min(r["us"] for r in rows) / 2
    span = math.log10(top * 2) - math.log10(low)
    lines = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
             'font-size="13">' % (width, height),
             '<text x="10" y="20" font-weight="bold">8K u8x4 Gaussian blur, median time (log scale; shorter is '
             'faster)</text>']
    for index, row in enumerate(rows):
        y = 35 + index * bar
        length = (math.log10(row["us"]) - math.log10(low)) / span * (width - left - 90)
        colour = "#2b7bba" if row["case"].startswith("gpufilter") else "#999999"
        lines.append('<text x="10" y="%d">%s</text>' % (y + 16, row["case"]))
        lines.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>' % (left, y + 3, length, bar - 8,
                                                                                   colour))
        lines.append('<text x="%.1f" y="%d">%.2f ms</text>' % (left + length + 6, y + 16, row["us"] / 1000))
    lines.append("</svg>")
    with open(path, "w") as chart:
        chart.write("\n".join(lines) + "\n")


def main():
    os.makedirs(ARGS.out, exist_ok=True)
    if not torch.cuda.is_available() or gpufilter.device_count() == 0:
        sys.exit("bench_python: needs a CUDA device visible to PyTorch and gpufilter")
    report = {"device": gpufilter.device_description(), "torch": torch.__version__, "gpufilter": gpufilter.__version__,
              "python": sys.version.split()[0], "numpy": numpy.__version__}
    report["overhead"] = overhead(ARGS.calls)
    report["overhead_cpp_us"] = cpp_overhead(ARGS.calls)
    rows = blur_cases(ARGS.runs)
    report["blur_8k"] = rows
    report["blur_8k_cpp_bench_us"] = cpp_bench_8k()

    print("device: %s" % report["device"])
    print("\nper call, 64x64 u8x4 blur:")
    cpp = report["overhead_cpp_us"]
    for row in report["overhead"]:
        extra = "" if cpp is None else "  (+%.1f us over C++ %.1f us)" % (row["us_per_call"] - cpp, cpp)
        print("  %-28s %8.1f us%s" % (row["case"], row["us_per_call"], extra))
    ours = rows[0]["us"]
    gpu_peers = [r["us"] for r in rows if not r["case"].startswith("gpufilter") and "CPU" not in r["case"]]
    print("\n8K u8x4 blur at its defaults:")
    for row in rows:
        ratio = row["us"] / ours
        print("  %-40s %9.1f us  %6.1fx gpufilter%s" % (row["case"], row["us"], ratio,
                                                       "" if "max_diff" not in row else
                                                       "  (max diff %g)" % row["max_diff"]))
    if report["blur_8k_cpp_bench_us"]:
        cpp8k = report["blur_8k_cpp_bench_us"]
        print("  %-40s %9.1f us  (python/C++ = %.3f one call, %.3f back to back)"
              % ("gpufilter-bench (C++ default row)", cpp8k, ours / cpp8k, rows[2]["us"] / cpp8k))
    if gpu_peers:
        report["speedup_vs_fastest_gpu_peer"] = min(gpu_peers) / ours
        print("  fastest GPU peer / gpufilter: %.1fx" % report["speedup_vs_fastest_gpu_peer"])
    with open(os.path.join(ARGS.out, "bench_python.json"), "w") as out:
        json.dump(report, out, indent=2)
    write_svg(os.path.join(ARGS.out, "bench_python.svg"), rows)


if __name__ == "__main__":
    main()
