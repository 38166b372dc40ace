"""A collection of image files spread over a Dask cluster, the Dask way: one task per file
(or per chunk of files), placed by the scheduler, each run on the GPU its worker picks;
a task whose worker dies is run again elsewhere, and the dashboard shows the progress.

    from dask.distributed import Client, LocalCluster, progress
    import gpufilter.cluster
    with LocalCluster(n_workers=gpufilter.device_count(), threads_per_worker=1) as cluster, \\
            Client(cluster) as client:
        results = gpufilter.cluster.batch_on_cluster(client, "blur", paths, "out", sigma=2.0)

        futures = gpufilter.cluster.submit_files(client, "blur", paths, "out", sigma=2.0)
        progress(futures)                            # a bar, in a terminal or notebook
        results = gpufilter.cluster.gather_files(client, futures, timeout=600)

Dask (python3-dask, python3-distributed) is needed only here, and imported by the caller.
"""
import os
import shutil

import gpufilter

__all__ = ["submit_files", "gather_files", "batch_on_cluster", "worker_device", "cli_path"]


def worker_device():
    """The GPU ordinal this process's files run on: with one GPU visible (a worker started
    with CUDA_VISIBLE_DEVICES, as dask-cuda starts them) that one; with several, one per
    worker of the machine, by the worker's name where it is a number (LocalCluster names
    its workers 0, 1, ...) or else its port; None without a GPU."""
    gpus = gpufilter.device_count()
    if gpus <= 1:
        return 0 if gpus == 1 else None
    try:
        from distributed import get_worker
        worker = get_worker()
    except (ImportError, ValueError):
        return 0
    name = worker.name
    if isinstance(name, int) or (isinstance(name, str) and name.isdigit()):
        return int(name) % gpus
    return int(str(worker.address).rsplit(":", 1)[-1]) % gpus


def run_files(op, inputs, out_dir, options):
    """One task: gpufilter.batch over `inputs` on the GPU this worker picks (unless
    `options` names devices or device="cpu"). Returns batch's per-file results."""
    options = dict(options)
    if "devices" not in options and options.get("device", "auto") != "cpu":
        device = worker_device()
        if device is not None:
            options["devices"] = [device]
    return gpufilter.batch(op, inputs, out_dir, **options)


def _output_name(path, out_dir, suffix, format):
    base = os.path.basename(path)
    stem, extension = os.path.splitext(base)
    if format:
        extension = "." + format.lstrip(".").lower()
    return os.path.join(str(out_dir), stem + suffix + extension)


def submit_files(client, op, inputs, out_dir, *, files_per_task=1, retries=2, replace=False, suffix="",
                 format=None, **kwargs):
    """Submits gpufilter.batch(op, ..., out_dir, **kwargs) over `inputs` as one task per
    `files_per_task` files, and returns their futures in the order of `inputs` (for
    dask.distributed.progress, as_completed or gather_files). A task is tried again up
    to `retries` times where it raised; one whose worker died Dask runs again on another
    worker (up to distributed.scheduler.allowed-failures deaths, then KilledWorker).

    Outputs already there are refused here, before any work, unless replace=True (as the
    CLI's batch without -y): the tasks themselves replace, so that a file written by a
    task whose worker died before it reported is not refused when the task runs again.
    Paths are taken as this process sees them: the workers must share its file system."""
    inputs = [os.fspath(path) for path in inputs]
    if files_per_task < 1:
        raise ValueError("files_per_task must be at least 1, got %r" % (files_per_task,))
    if not replace:
        existing = [name for name in (_output_name(path, out_dir, suffix, format) for path in inputs)
                    if os.path.exists(name)]
        if existing:
            raise FileExistsError("%d output(s) exist already, such as '%s'; pass replace=True to replace them"
                                  % (len(existing), existing[0]))
    os.makedirs(str(out_dir), exist_ok=True)
    options = dict(kwargs, replace=True, suffix=suffix, format=format)
    chunks = [inputs[start:start + files_per_task] for start in range(0, len(inputs), files_per_task)]
    return [client.submit(run_files, op, chunk, str(out_dir), options, retries=retries, pure=False)
            for chunk in chunks]


def gather_files(client, futures, timeout=None):
    """The per-file results of submit_files' futures, in their order, as one list. With
    `timeout` (seconds) raises TimeoutError where they are not all done by then, instead
    of waiting on a cluster that cannot finish (no workers left)."""
    from distributed import wait
    if timeout is not None:
        wait(futures, timeout=timeout)  # raises TimeoutError
    results = []
    for shard in client.gather(futures):
        results.extend(shard)
    return results


def batch_on_cluster(client, op, inputs, out_dir, *, files_per_task=1, retries=2, timeout=None, **kwargs):
    """Runs gpufilter.batch(op, inputs, out_dir, **kwargs) over the workers of `client`, one
    task per `files_per_task` files, and returns the per-file results in the order of
    `inputs` (see submit_files and gather_files)."""
    futures = submit_files(client, op, inputs, out_dir, files_per_task=files_per_task, retries=retries, **kwargs)
    return gather_files(client, futures, timeout=timeout)


def cli_path():
    """The gpufilter command-line tool: on PATH, else installed beside this package (the
    bin/ of the prefix whose lib/pythonX.Y/site-packages holds it, as `cmake --install`
    puts them). None where neither is found."""
    found = shutil.which("gpufilter")
    if found:
        return found
    package = os.path.dirname(os.path.abspath(gpufilter.__file__))
    prefix = package
    for _ in range(4):  # gpufilter, site-packages, pythonX.Y, lib
        prefix = os.path.dirname(prefix)
    candidate = os.path.join(prefix, "bin", "gpufilter")
    return candidate if os.access(candidate, os.X_OK) else None
