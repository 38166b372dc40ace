#!/usr/bin/env python3
"""Cost against mask size, from bench/radius_sweep's JSON files: a Markdown table of
median microseconds (radius x variant) and a PNG chart (log-log), for docs/.

    bench/radius_report.py SWEEP_DIR OUT_PREFIX [NOTE]

writes OUT_PREFIX.md and, where matplotlib is installed, OUT_PREFIX.png; NOTE (e.g.
"premultiplied alpha") joins the runs' label in the title.
"""
import glob
import json
import os
import re
import sys

VARIANTS = ["naive", "constant", "tiled", "tiled_l2", "separable", "separable_tiled", "separable_packed",
            "separable_strip_pixels", "separable_strip_elements", "separable_strip_imma", "separable_strip_imma_both",
            "box_stack", "decimated",
            "auto", "npp"]


def load(sweep_dir):
    """{radius: {variant: median_us}}, the row label of the runs, and the rows that failed
    (radius, variant, error)."""
    table, label, failed = {}, "", []
    for path in glob.glob(os.path.join(sweep_dir, "radius-*.json")):
        radius = int(re.search(r"radius-(\d+)\.json$", path).group(1))
        with open(path) as f:
            runs = json.load(f)["benchmarks"]
        for run in runs:
            parts = run["name"].split("/")  # blur/<variant>/<format>/<size>/<border>/...
            if parts[0] != "blur" or parts[1] not in VARIANTS:
                continue
            if run.get("error_occurred"):
                failed.append((radius, parts[1], run.get("error_message", "")))
            elif "median_us" in run:
                table.setdefault(radius, {})[parts[1]] = run["median_us"]
                if parts[1] != "npp" or not label:  # NPP's rows run its own border
                    label = "/".join(parts[2:5])
    return table, label, sorted(failed)


def markdown(table, label, failed):
    lines = [f"Blur {label}, sigma = radius / 3, median µs (bench/radius_sweep)", "",
             "| radius | taps | " + " | ".join(VARIANTS) + " |",
             "| ---: | ---: |" + " ---: |" * len(VARIANTS)]
    for radius in sorted(table):
        cells = [f"{table[radius][v]:.1f}" if v in table[radius] else "–" for v in VARIANTS]
        lines.append(f"| {radius} | {2 * radius + 1}x{2 * radius + 1} | " + " | ".join(cells) + " |")
    if failed:
        lines += ["", "Rows that failed (not timed):", ""]
        lines += [f"- radius {radius}, `{variant}`: {error}" for radius, variant, error in failed]
    return "\n".join(lines) + "\n"


def chart(table, label, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no chart", file=sys.stderr)
        return False
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for variant in VARIANTS:
        points = sorted((r, row[variant]) for r, row in table.items() if variant in row)
        if points:
            ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=variant)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("radius (mask width 2r+1)")
    ax.set_ylabel("median time per launch (µs)")
    ax.set_title(f"Blur {label}: cost against mask size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    table, label, failed = load(sys.argv[1])
    if len(sys.argv) == 4:
        label = f"{label}, {sys.argv[3]}"
    if not table:
        sys.exit(f"no radius-*.json with blur rows in {sys.argv[1]}")
    with open(sys.argv[2] + ".md", "w") as f:
        f.write(markdown(table, label, failed))
    chart(table, label, sys.argv[2] + ".png")


if __name__ == "__main__":
    main()
