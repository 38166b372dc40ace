"""gpufilter with Dask: dask.array images filtered chunk by chunk equal the whole image's
result, and a collection of files spread over a two-worker cluster (processes, as CI runs
it) gives the files of one process, also when a worker is killed mid-run (the call
finishes, or raises; it never hangs)."""
import filecmp
import os
import signal

import numpy
import pytest

import gpufilter

dask = pytest.importorskip("dask")
dask_array = pytest.importorskip("dask.array")
distributed = pytest.importorskip("dask.distributed")
import gpufilter.cluster  # noqa: E402  (after Dask is known to be here)
import gpufilter.dask  # noqa: E402

from conftest import random_image  # noqa: E402

# Far above what the cluster needs on a loaded machine: only a hang reaches it.
HANG = 300

# Ops and parameters whose reach differs (none, 1, 2, a rectangle, a wide Gaussian) and
# borders of every kind.
CASES = [
    ("blur", dict(sigma=2.0)),
    ("blur", dict(sigma=3.0, sigma_y=1.0, border="replicate")),
    ("blur", dict(sigma=1.0, border="constant", border_value=7)),
    ("median", dict(radius=2)),
    ("box", dict(size=(5, 3), border="wrap")),
    ("sharpen", dict(sigma=1.5, amount=0.8)),
    ("edge", dict(operator="scharr", direction="both")),
    ("convolve", dict(kernel="0 -1 0; -1 5 -1; 0 -1 0", border="reflect")),
    ("invert", dict()),
]


@pytest.mark.parametrize("op,params", CASES)
@pytest.mark.parametrize("channels,dtype", [(0, numpy.uint8), (3, numpy.uint8), (4, numpy.uint16), (1, numpy.float32)])
def test_filter_array_equals_the_whole_image(rng, op, params, channels, dtype):
    image = random_image(rng, 61, 47, channels, dtype)
    whole = getattr(gpufilter, op)(image, device="cpu", **params)
    # Chunks smaller than the reach (blur sigma 3: 9) and of uneven sizes.
    chunks = (7, 13) + ((-1,) if channels else ())
    tiled = gpufilter.dask.filter_array(dask_array.from_array(image, chunks=chunks), op, device="cpu", **params)
    assert isinstance(tiled, dask_array.Array)
    result = tiled.compute(scheduler="sync")
    assert result.shape == image.shape and result.dtype == image.dtype
    assert numpy.array_equal(result, numpy.asarray(whole).reshape(image.shape))


def test_the_reach_is_the_ops_radius():
    assert gpufilter.dask.reach("blur", sigma=2.0) == (6, 6)  # ceil(3 sigma)
    assert gpufilter.dask.reach("blur", sigma=2.0, radius=3) == (3, 3)
    assert gpufilter.dask.reach("blur", sigma=1.0, sigma_y=3.0) == (9, 3)
    assert gpufilter.dask.reach("box", size=(5, 3)) == (1, 2)
    assert gpufilter.dask.reach("median", radius=3) == (3, 3)
    assert gpufilter.dask.reach("gamma", value=2.0) == (0, 0)


# What map_overlap gives with Dask's own edge, which is numpy.pad's 'symmetric' (the edge
# pixel repeated), not the library's reflect101: filter_array exists for this difference.
def test_dasks_reflect_boundary_is_not_reflect101(rng):
    image = random_image(rng, 40, 40, 0, numpy.uint8)
    whole = gpufilter.blur(image, sigma=2.0, device="cpu")
    chunked = dask_array.from_array(image, chunks=(20, 20))
    dasks = dask_array.map_overlap(lambda block: gpufilter.blur(block, sigma=2.0, device="cpu").reshape(block.shape),
                                   chunked, depth=6, boundary="reflect", dtype=numpy.uint8).compute(scheduler="sync")
    assert not numpy.array_equal(dasks, whole)
    assert numpy.array_equal(gpufilter.dask.filter_array(chunked, "blur", sigma=2.0, device="cpu").compute(), whole)


@pytest.mark.parametrize("op,params,word", [
    ("equalize", {}, "no bounded reach"),
    ("resize", {"scale": 0.5}, "changes the image's shape"),
    ("stats", {}, "gives data"),
    ("blurr", {}, "did you mean 'blur'"),
])
def test_ops_that_cannot_run_by_chunk_are_refused(op, params, word):
    image = dask_array.zeros((32, 32), dtype=numpy.uint8, chunks=16)
    with pytest.raises(ValueError, match=word):
        gpufilter.dask.filter_array(image, op, **params)


def test_a_mistyped_keyword_names_the_nearest():
    with pytest.raises(TypeError, match="did you mean 'sigma'"):
        gpufilter.dask.filter_array(dask_array.zeros((8, 8), dtype=numpy.uint8), "blur", sigmma=2.0)


def _cluster():
    return distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                    silence_logs=50)


def _same_files(alone, spread):
    assert [r["input"] for r in spread] == [r["input"] for r in alone]
    for one, other in zip(alone, spread):
        assert other["ok"], other["error"]
        assert filecmp.cmp(one["output"], other["output"], shallow=False), other["output"]


def test_two_workers_match_one_process(tmp_path, image_files):
    alone = gpufilter.batch("blur", image_files, tmp_path / "alone", sigma=2.0, device="cpu")
    assert all(r["ok"] for r in alone)
    with _cluster() as cluster, distributed.Client(cluster) as client:
        futures = gpufilter.cluster.submit_files(client, "blur", image_files, tmp_path / "spread", sigma=2.0,
                                                 device="cpu")
        assert len(futures) == len(image_files)  # a task per file, placed by the scheduler
        spread = gpufilter.cluster.gather_files(client, futures, timeout=HANG)
        # Chunks of files, and an image array, on the same cluster.
        chunked = gpufilter.cluster.batch_on_cluster(client, "blur", image_files, tmp_path / "chunked",
                                                     files_per_task=7, sigma=2.0, device="cpu", timeout=HANG)
        image = random_image(numpy.random.default_rng(3), 90, 70, 3, numpy.uint8)
        tiled = gpufilter.dask.filter_array(dask_array.from_array(image, chunks=(30, 35, 3)), "median", radius=2,
                                            device="cpu")
        assert numpy.array_equal(client.compute(tiled).result(timeout=HANG),
                                 gpufilter.median(image, radius=2, device="cpu"))
    _same_files(alone, spread)
    _same_files(alone, chunked)


def test_existing_outputs_are_refused_before_any_work(tmp_path, image_files):
    with _cluster() as cluster, distributed.Client(cluster) as client:
        gpufilter.cluster.batch_on_cluster(client, "copy", image_files[:2], tmp_path, device="cpu", timeout=HANG)
        with pytest.raises(FileExistsError, match="replace=True"):
            gpufilter.cluster.submit_files(client, "copy", image_files[:3], tmp_path, device="cpu")
        assert not (tmp_path / os.path.basename(image_files[2])).exists()
        again = gpufilter.cluster.batch_on_cluster(client, "copy", image_files[:3], tmp_path, device="cpu",
                                                   replace=True, timeout=HANG)
    assert all(r["ok"] for r in again)


class KillWorkerRunningAFile(distributed.WorkerPlugin):
    """Kills the worker process (SIGKILL, as the kernel's OOM killer does) when it starts one
    of gpufilter.cluster's tasks, the first `times` times in all (counted in files, since a
    killed worker's successor starts afresh)."""

    def __init__(self, folder, times):
        self.folder = str(folder)
        self.times = times

    def transition(self, key, start, finish, **kwargs):
        name = key[0] if isinstance(key, tuple) else key
        if finish != "executing" or not str(name).startswith("run_files"):
            return
        for index in range(self.times):
            try:
                os.close(os.open(os.path.join(self.folder, "kill%d" % index), os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                continue
            os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_killed_mid_run_is_replaced_and_the_call_finishes(tmp_path, image_files):
    alone = gpufilter.batch("blur", image_files, tmp_path / "alone", sigma=2.0, device="cpu")
    kills = tmp_path / "kills"
    kills.mkdir()
    with _cluster() as cluster, distributed.Client(cluster) as client:
        client.register_worker_plugin(KillWorkerRunningAFile(kills, 1), name="kill")
        spread = gpufilter.cluster.batch_on_cluster(client, "blur", image_files, tmp_path / "spread", sigma=2.0,
                                                    device="cpu", timeout=HANG)
    assert os.listdir(kills) == ["kill0"]  # a worker died while running a file
    _same_files(alone, spread)


def test_workers_that_keep_dying_make_the_call_raise(tmp_path, image_files):
    kills = tmp_path / "kills"
    kills.mkdir()
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        with _cluster() as cluster, distributed.Client(cluster) as client:
            client.register_worker_plugin(KillWorkerRunningAFile(kills, 1000), name="kill")
            with pytest.raises(distributed.KilledWorker):
                gpufilter.cluster.batch_on_cluster(client, "blur", image_files[:1], tmp_path / "out", sigma=2.0,
                                                   device="cpu", timeout=HANG)
