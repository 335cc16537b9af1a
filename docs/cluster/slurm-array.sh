#!/bin/sh
# docs/cluster/slurm-array.sh: one shard per array task (docs/simulation.md,
# "Many machines"). Submit the array, then the merge once every task is done:
#   mkdir -p parts
#   job=$(sbatch --parsable --array=1-16 docs/cluster/slurm-array.sh)
#   sbatch --dependency=afterok:$job --wrap \
#     'cairn sim merge parts/part-*.json --json yak.json --csv yak.csv > yak.txt'
# --jobs is left to cairn: it uses the CPUs Slurm gives the task (its cpuset
# and, under cgroup v2, its CPU quota), so --cpus-per-task is all to change.
#SBATCH --job-name=cairn-sim
#SBATCH --cpus-per-task=4
#SBATCH --time=00:30:00
#SBATCH --output=parts/slurm-%A_%a.out
N=16
exec cairn sim yak --games 20000 --seed 1 --shard "$SLURM_ARRAY_TASK_ID/$N" \
  --quiet --json "parts/part-$SLURM_ARRAY_TASK_ID.json"
