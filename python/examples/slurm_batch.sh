#!/bin/bash
# A Slurm array job: each task of the array runs `gpufilter blur` on its share of the list
# (inputs I, I+N, I+2N, ... for the task's place I among N), on its own GPU, with the CLI's
# batch pipeline. Submit with:
#   find photos -name '*.jpg' > inputs.txt && mkdir -p logs blurred && sbatch python/examples/slurm_batch.sh
# Any range works (--array=0-15, 1-16, 0-30:2): the shard is the task's place in the
# array, not its id. The tool is $GPUFILTER where set, else the gpufilter on PATH, else the
# one installed beside the Python package (bin/ of the same prefix).
#SBATCH --job-name=gpufilter-blur
#SBATCH --array=1-16
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=8
#SBATCH --time=01:00:00
#SBATCH --output=logs/%A_%a.out
set -euo pipefail

gpufilter=${GPUFILTER:-$(command -v gpufilter || python3 -c 'import gpufilter.cluster as c; print(c.cli_path() or "")')}
if [ -z "$gpufilter" ]; then
  echo "gpufilter not found: put it on PATH, install it beside the Python package, or set GPUFILTER" >&2
  exit 1
fi

# The task's place among the array's tasks, 0 for the lowest id, whatever the first id
# (--array=1-16 as well as 0-15) and step (--array=0-30:2). A list with gaps (3,5,9) has
# no such place: refused, so that no shard is left out.
task=${SLURM_ARRAY_TASK_ID:?not an array job: submit with sbatch --array=A-B}
count=${SLURM_ARRAY_TASK_COUNT:?}
first=${SLURM_ARRAY_TASK_MIN:?}
last=${SLURM_ARRAY_TASK_MAX:?}
step=${SLURM_ARRAY_TASK_STEP:-1}
if [ $(((last - first) / step + 1)) -ne "$count" ] || [ $(((task - first) % step)) -ne 0 ]; then
  echo "the array is not a range A-B[:S] (task $task of $count from $first to $last): give --array that way" >&2
  exit 1
fi
place=$(((task - first) / step))

"$gpufilter" blur --from-file inputs.txt --out-dir blurred --sigma 2 \
  --shard "${place}/${count}" \
  ${SLURM_CPUS_PER_TASK:+--jobs "$SLURM_CPUS_PER_TASK"} --quiet -y
