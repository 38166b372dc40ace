#!/usr/bin/env python3
"""Several gpufilter-bench runs of the same rows side by side: the table of a sweep, one
run per value of a tuning knob (scripts/gpu-sweep), all timed on one build and GPU.

    bench/sweep_table.py LABEL=RUN.json [LABEL=RUN.json ...]

Each argument is a column's label and the bench's --benchmark_out JSON file. Prints a
Markdown table of the rows the first run has (median µs in each run, the fastest bold),
then, for each row, the column it ran fastest in. A row missing from a run shows "-".
"""
import sys

from compare_runs import rows


def table(columns):
    """The Markdown lines for [(label, {row: (median µs, roofline)})], rows in the first run's order."""
    labels = [label for label, _ in columns]
    lines = ["| row | " + " | ".join(labels) + " | fastest |", "| --- |" + " ---: |" * len(labels) + " --- |"]
    for name in columns[0][1]:
        times = [run[name][0] if name in run else None for _, run in columns]
        best = min((t for t in times if t is not None), default=None)
        cells = ["-" if t is None else (f"**{t:.1f}**" if t == best else f"{t:.1f}") for t in times]
        fastest = labels[times.index(best)] if best is not None else "-"
        lines.append(f"| `{name}` | " + " | ".join(cells) + f" | {fastest} |")
    return lines


def main(argv):
    if not argv or any("=" not in arg for arg in argv):
        print("usage: bench/sweep_table.py LABEL=RUN.json [LABEL=RUN.json ...]", file=sys.stderr)
        return 2
    columns = []
    try:
        for arg in argv:
            label, path = arg.split("=", 1)
            columns.append((label, rows(path)))
    except (OSError, ValueError) as error:
        print(f"sweep_table: {error}", file=sys.stderr)
        return 2
    print("\n".join(table(columns)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
