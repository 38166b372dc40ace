"""A collection of image files spread over a Dask cluster: one task per worker, each
running gpufilter.batch (the CLI's pipeline) on its shard of the list, on its own GPU.

    from dask.distributed import Client, LocalCluster
    import gpufilter.cluster
    with LocalCluster(n_workers=gpufilter.device_count(), threads_per_worker=1) as cluster, \\
            Client(cluster) as client:
        files = gpufilter.cluster.batch_on_cluster(client, "blur", paths, "out", sigma=2.0)

Dask (python3-dask, python3-distributed) is needed only here, and imported by the caller.
"""
import gpufilter


def run_shard(op, inputs, out_dir, index, count, kwargs):
    """One worker's share: inputs index, index + count, ... on GPU index modulo the GPUs
    this worker sees (a worker started with CUDA_VISIBLE_DEVICES sees its own one)."""
    options = dict(kwargs)
    gpus = gpufilter.device_count()
    if gpus > 0 and "devices" not in options and options.get("device", "auto") != "cpu":
        options["devices"] = [index % gpus]
    return gpufilter.batch(op, inputs, out_dir, shard=(index, count), **options)


def batch_on_cluster(client, op, inputs, out_dir, **kwargs):
    """Runs gpufilter.batch(op, inputs, out_dir, **kwargs) over every worker of `client`,
    one shard each, and returns the per-file results in the order of `inputs`."""
    inputs = [str(path) for path in inputs]
    workers = sorted(client.scheduler_info()["workers"])
    if not workers:
        raise RuntimeError("the Dask cluster has no workers")
    count = len(workers)
    futures = [client.submit(run_shard, op, inputs, str(out_dir), index, count, kwargs, workers=[worker],
                             allow_other_workers=False, pure=False)
               for index, worker in enumerate(workers)]
    shards = client.gather(futures)
    results = [None] * len(inputs)
    for index, shard in enumerate(shards):
        for position, result in zip(range(index, len(inputs), count), shard):
            results[position] = result
    return results
