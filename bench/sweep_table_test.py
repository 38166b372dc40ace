#!/usr/bin/env python3
"""bench/sweep_table.py on made-up bench runs: the columns it labels, the fastest run it
marks per row, a row one run lacks, and its exit statuses. Run by ctest
(bench_sweep_table); needs only the standard library."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_table  # noqa: E402
from compare_runs_test import bench_json, captured  # noqa: E402


def run(args):
    return captured(sweep_table.main, args)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        paths = {label: os.path.join(tmp, f"{label}.json") for label in ("plan", "8", "16")}
        bench_json(paths["plan"], [("blur/default/u16x4/8K/reflect101", 339.4, 0.40),
                                   ("blur/default/u8x4/8K/reflect101", 286.4, 0.24)])
        bench_json(paths["8"], [("blur/default/u16x4/8K/reflect101", 311.9, 0.44),
                                ("blur/default/u8x4/8K/reflect101", 286.1, 0.24)])
        bench_json(paths["16"], [("blur/default/u16x4/8K/reflect101", 313.6, 0.43)])
        status, out = run([f"{label}={path}" for label, path in paths.items()])
        lines = out.splitlines()
        assert status == 0, status
        assert lines[0] == "| row | plan | 8 | 16 | fastest |", lines[0]
        assert lines[2] == "| `blur/default/u16x4/8K/reflect101` | 339.4 | **311.9** | 313.6 | 8 |", lines[2]
        assert lines[3] == "| `blur/default/u8x4/8K/reflect101` | 286.4 | **286.1** | - | 8 |", lines[3]
        assert len(lines) == 4, lines  # the made-up run without a median is no row
        assert run([paths["plan"]])[0] == 2  # no label
        assert run([])[0] == 2
        assert run([f"x={os.path.join(tmp, 'missing.json')}"])[0] == 2
    print("sweep_table: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
