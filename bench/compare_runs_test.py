#!/usr/bin/env python3
"""bench/compare_runs.py on two made-up bench runs: the rows it pairs, the changes it
prints, its counts against the threshold and its exit statuses. Run by ctest
(bench_compare_runs); needs only the standard library."""
import contextlib
import io
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_runs  # noqa: E402


def bench_json(path, rows):
    """A --benchmark_out file with one run per (name, median_us, roofline)."""
    runs = [{"name": f"{name}/iterations:10/manual_time", "run_type": "iteration", "median_us": us, "roofline": share}
            for name, us, share in rows]
    runs.append({"name": "copy/naive/u8x4/8K/iterations:10/manual_time", "run_type": "iteration"})  # no median
    with open(path, "w") as f:
        json.dump({"context": {}, "benchmarks": runs}, f)


def captured(entry, args):
    """entry(args)'s exit status and standard output (its standard error dropped)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = entry(args)
    return status, out.getvalue()


def run(args):
    return captured(compare_runs.main, args)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        before, after = os.path.join(tmp, "before.json"), os.path.join(tmp, "after.json")
        bench_json(before, [("blur/default/u8x4/8K/reflect101", 300.0, 0.20),
                            ("blur/default/u16x3/8K/reflect101", 286.9, 0.36),
                            ("edge/default/u16x1/8K/reflect101", 87.7, 0.394),
                            ("box/default/u8x1/8K/reflect101", 47.3, 0.365)])
        bench_json(after, [("blur/default/u8x4/8K/reflect101", 303.0, 0.198),
                           ("blur/default/u16x3/8K/reflect101", 271.1, 0.382),
                           ("edge/default/u16x1/8K/reflect101", 101.9, 0.34),
                           ("median/default/u8x4/8K/reflect101", 120.0, 0.576)])

        status, text = run([before, after])
        assert status == 0, text
        lines = text.splitlines()
        assert "| `blur/default/u8x4/8K/reflect101` | 300.0 | 303.0 | +1.0% | 19.8% |" in lines, text
        assert "| `blur/default/u16x3/8K/reflect101` | 286.9 | **271.1** | -5.5% | 38.2% |" in lines, text
        assert "| `edge/default/u16x1/8K/reflect101` | 87.7 | 101.9 | +16.2% | 34.0% |" in lines, text
        assert not any("copy/naive" in line for line in lines), "a row without a median is not compared"
        assert ("3 rows in both runs: 1 more than 3% faster, 1 within 3%, 1 more than 3% slower: "
                "`edge/default/u16x1/8K/reflect101`.") in lines, text
        assert ("In one run only: `box/default/u8x1/8K/reflect101`, `median/default/u8x4/8K/reflect101`."
                in lines), text

        # A wider threshold moves the rows within it; --fail-slower fails only on a slower row.
        status, text = run([before, after, "--threshold", "20", "--fail-slower"])
        assert status == 0, text
        assert "3 rows in both runs: 0 more than 20% faster, 3 within 20%, 0 more than 20% slower." in text, text
        status, text = run([before, after, "--fail-slower"])
        assert status == 1, text

        # A file that is not there, or not JSON: a message and exit status 2.
        assert run([before, os.path.join(tmp, "missing.json")])[0] == 2
        with open(os.path.join(tmp, "broken.json"), "w") as f:
            f.write("{not json")
        assert run([before, os.path.join(tmp, "broken.json")])[0] == 2
    print("compare_runs: all checks passed")


if __name__ == "__main__":
    main()
