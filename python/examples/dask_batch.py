#!/usr/bin/env python3
"""Blurs a collection of image files over a Dask cluster: one task per file (or per
--files-per-task files), placed by the scheduler on a worker per GPU, each task running
gpufilter's batch pipeline (the CLI's); a task whose worker dies runs again elsewhere.

  # one machine, one worker per GPU (or N CPU workers with --cpu-workers N)
  python3 python/examples/dask_batch.py --out-dir blurred photos/*.jpg
  # a cluster: start `dask-scheduler`, then on each node one worker per GPU:
  #   CUDA_VISIBLE_DEVICES=0 dask-worker tcp://head:8786 --nthreads 1 &
  #   CUDA_VISIBLE_DEVICES=1 dask-worker tcp://head:8786 --nthreads 1 &
  python3 python/examples/dask_batch.py --scheduler tcp://head:8786 --out-dir /shared/blurred --from-file list.txt
"""
import argparse
import sys

from dask.distributed import Client, LocalCluster, progress

import gpufilter
import gpufilter.cluster


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="*")
    parser.add_argument("--from-file", help="more inputs, one path a line")
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--op", default="blur")
    parser.add_argument("--sigma", type=float, default=2.0, help="blur's sigma")
    parser.add_argument("--scheduler", help="a running scheduler's address (default: a local cluster)")
    parser.add_argument("--cpu-workers", type=int, default=0, help="a local cluster of N CPU workers")
    parser.add_argument("--files-per-task", type=int, default=1, help="files a task runs (default: 1)")
    args = parser.parse_args()
    inputs = list(args.inputs)
    if args.from_file:
        with open(args.from_file) as listing:
            inputs += [line.rstrip("\n") for line in listing if line.strip()]
    params = {"sigma": args.sigma} if args.op == "blur" else {}
    if args.cpu_workers:
        params["device"] = "cpu"

    if args.scheduler:
        client, cluster = Client(args.scheduler), None
    else:
        workers = args.cpu_workers or max(1, gpufilter.device_count())
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True)
        client = Client(cluster)
    try:
        futures = gpufilter.cluster.submit_files(client, args.op, inputs, args.out_dir, replace=True,
                                                 files_per_task=args.files_per_task, **params)
        progress(futures)  # a progress bar here; the dashboard shows the tasks too
        results = gpufilter.cluster.gather_files(client, futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    failed = [r for r in results if not r["ok"]]
    for result in failed:
        print("failed: %s: %s" % (result["input"], result["error"]), file=sys.stderr)
    print("%d files, %d failed" % (len(results), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
