"""python/examples/slurm_batch.sh as Slurm runs it: every task of an array, whatever its
first id and step, runs the tool on a shard of its own, and the tool is found on PATH,
beside the Python package, or through $GPUFILTER."""
import os
import stat
import subprocess
import sys

import pytest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "slurm_batch.sh")


def _fake_tool(folder):
    """A stand-in for gpufilter that prints its arguments."""
    tool = folder / "gpufilter"
    tool.write_text("#!/bin/sh\necho \"$@\"\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    return tool


_SEARCH_PATH = os.path.dirname(sys.executable) + ":/usr/bin:/bin"


def _run(env, cwd):
    # The script's python3 is the one running the tests (which has NumPy), then the system's.
    base = {"PATH": _SEARCH_PATH, "PYTHONPATH": os.pathsep.join(sys.path)}
    if "LD_LIBRARY_PATH" in os.environ:  # where the session's own libraries come from
        base["LD_LIBRARY_PATH"] = os.environ["LD_LIBRARY_PATH"]
    return subprocess.run(["bash", SCRIPT], env=dict(base, **env), cwd=str(cwd), capture_output=True, text=True,
                          timeout=60)


def _array_env(ids, task, step=1):
    return {"SLURM_ARRAY_TASK_ID": str(task), "SLURM_ARRAY_TASK_COUNT": str(len(ids)),
            "SLURM_ARRAY_TASK_MIN": str(min(ids)), "SLURM_ARRAY_TASK_MAX": str(max(ids)),
            "SLURM_ARRAY_TASK_STEP": str(step)}


@pytest.mark.parametrize("ids,step", [(range(0, 16), 1), (range(1, 17), 1), (range(4, 31, 2), 2)])
def test_every_task_of_an_array_takes_its_own_shard(tmp_path, ids, step):
    tool = _fake_tool(tmp_path)
    shards = []
    for task in ids:
        run = _run(dict(_array_env(list(ids), task, step), GPUFILTER=str(tool)), tmp_path)
        assert run.returncode == 0, run.stderr
        words = run.stdout.split()
        shards.append(words[words.index("--shard") + 1])
    count = len(list(ids))
    assert shards == ["%d/%d" % (place, count) for place in range(count)]


def test_an_array_with_gaps_is_refused(tmp_path):
    tool = _fake_tool(tmp_path)
    run = _run(dict(_array_env([3, 5, 9], 9, 1), GPUFILTER=str(tool)), tmp_path)
    assert run.returncode == 1
    assert "--array" in run.stderr and run.stdout == ""


def test_the_tool_is_found_on_path_or_beside_the_package(tmp_path):
    env = _array_env([1, 2], 2)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake_tool(bin_dir)
    on_path = _run(dict(env, PATH=str(bin_dir) + ":" + _SEARCH_PATH), tmp_path)
    assert on_path.returncode == 0, on_path.stderr
    assert "--shard 1/2" in on_path.stdout
    # Not on PATH: the bin/ of the prefix whose lib/pythonX.Y/site-packages holds the
    # package, as `cmake --install` lays them out (here a copy of the package).
    prefix = tmp_path / "prefix"
    site = prefix / "lib" / "python3" / "site-packages"
    site.mkdir(parents=True)
    import gpufilter
    os.symlink(os.path.dirname(os.path.abspath(gpufilter.__file__)), site / "gpufilter")
    (prefix / "bin").mkdir()
    _fake_tool(prefix / "bin")
    beside = _run(dict(env, PYTHONPATH=str(site)), tmp_path)
    assert beside.returncode == 0, beside.stderr
    assert "--shard 1/2" in beside.stdout
    nowhere = _run(dict(env, PYTHONPATH=os.pathsep.join(sys.path)), tmp_path)
    assert nowhere.returncode == 1 and "gpufilter not found" in nowhere.stderr
