#!/bin/bash
# A Slurm array job: task I of N runs `gpufilter blur` on inputs I, I+N, ... of the list,
# on its own GPU, with the CLI's batch pipeline. Submit with:
#   find photos -name '*.jpg' > inputs.txt && mkdir -p logs blurred && sbatch python/examples/slurm_batch.sh
#SBATCH --job-name=gpufilter-blur
#SBATCH --array=0-15
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=8
#SBATCH --time=01:00:00
#SBATCH --output=logs/%A_%a.out
set -euo pipefail
gpufilter blur --from-file inputs.txt --out-dir blurred --sigma 2 \
  --shard "${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}" \
  --jobs "${SLURM_CPUS_PER_TASK}" --quiet -y
