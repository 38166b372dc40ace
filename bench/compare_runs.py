#!/usr/bin/env python3
"""Two gpufilter-bench runs side by side: the before/after table that the results docs
and the 3% rule compare (rows timed in the same run on the same GPU, e.g. by
scripts/gpu-ab).

    bench/compare_runs.py BEFORE.json AFTER.json [--threshold PCT] [--fail-slower]

BEFORE and AFTER are the bench's --benchmark_out JSON files. Prints a Markdown table of
the rows both ran (median µs before and after, the change, the after row's share of the
copy roofline), then how many rows ran more than PCT percent (default 3) faster, within
it, and slower, naming the slower ones and the rows only one run has. With
--fail-slower the exit status is 1 when a row ran more than PCT percent slower.
"""
import argparse
import json
import re
import sys


def rows(path):
    """{row name: (median µs, roofline share or None)}; the name without Google
    Benchmark's /iterations:N/manual_time suffix."""
    with open(path) as f:
        runs = json.load(f).get("benchmarks", [])
    table = {}
    for run in runs:
        if "median_us" not in run:
            continue
        name = re.sub(r"/(iterations|repeats|manual_time|real_time)\b.*$", "", run["name"])
        table[name] = (float(run["median_us"]), run.get("roofline"))
    return table


def compare(before, after, threshold):
    """The Markdown lines and the names of the rows slower by more than `threshold` %."""
    common = [name for name in after if name in before]
    lines = ["| row | before µs | after µs | change | % roofline (after) |", "| --- | ---: | ---: | ---: | ---: |"]
    faster, within, slower = [], [], []
    for name in common:
        was, now = before[name][0], after[name][0]
        change = 100.0 * (now / was - 1.0) if was > 0 else 0.0
        (faster if change < -threshold else slower if change > threshold else within).append(name)
        roofline = after[name][1]
        share = f"{100.0 * roofline:.1f}%" if roofline is not None else ""
        mark = "**" if change < -threshold else ""
        lines.append(f"| `{name}` | {was:.1f} | {mark}{now:.1f}{mark} | {change:+.1f}% | {share} |")
    lines.append("")
    lines.append(f"{len(common)} rows in both runs: {len(faster)} more than {threshold:g}% faster, "
                 f"{len(within)} within {threshold:g}%, {len(slower)} more than {threshold:g}% slower"
                 + (": " + ", ".join(f"`{name}`" for name in slower) if slower else "") + ".")
    only = sorted(set(before) ^ set(after))
    if only:
        lines.append("In one run only: " + ", ".join(f"`{name}`" for name in only) + ".")
    return lines, slower


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--threshold", type=float, default=3.0, help="percent (default 3)")
    parser.add_argument("--fail-slower", action="store_true", help="exit 1 when a row is slower than the threshold")
    args = parser.parse_args(argv)
    try:
        before, after = rows(args.before), rows(args.after)
    except (OSError, ValueError) as error:
        print(f"compare_runs: {error}", file=sys.stderr)
        return 2
    lines, slower = compare(before, after, args.threshold)
    print("\n".join(lines))
    return 1 if args.fail_slower and slower else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
