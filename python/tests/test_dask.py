"""A collection spread over a Dask cluster (two CPU workers, as CI runs it) gives the same
files as one process."""
import filecmp

import pytest

import gpufilter
import gpufilter.cluster

distributed = pytest.importorskip("dask.distributed")


def test_two_workers_match_one_process(tmp_path, image_files):
    alone = gpufilter.batch("blur", image_files, tmp_path / "alone", sigma=2.0, device="cpu")
    assert all(r["ok"] for r in alone)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        spread = gpufilter.cluster.batch_on_cluster(client, "blur", image_files, tmp_path / "spread", sigma=2.0,
                                                    device="cpu")
        workers_used = len(client.scheduler_info()["workers"])
    assert workers_used == 2
    assert [r["input"] for r in spread] == [str(p) for p in image_files]
    for one, other in zip(alone, spread):
        assert other["ok"], other["error"]
        assert filecmp.cmp(one["output"], other["output"], shallow=False), other["output"]
