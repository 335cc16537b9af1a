#!/bin/sh
# docs/cluster/slurm-array.sh: one shard per array task (docs/simulation.md,
# "Many machines"). Submit the array, then the merge once every task is done:
#   mkdir -p parts
#   job=$(sbatch --parsable --array=1-16 docs/cluster/slurm-array.sh)
#   sbatch --dependency=afterok:$job --wrap \
#     'cairn sim merge parts/part-*.json --json yak.json --csv yak.csv > yak.txt'
# --jobs is left to cairn: it uses the CPUs Slurm gives the task (its cpuset
# and, under cgroup v2, its CPU quota), so --cpus-per-task is all to change.
# Settings (environment; sbatch passes the submitting shell's on):
#   RULESET  the ruleset's name or folder on the nodes (yak)
#   GAMES    games in all (20000); SEED the first game's seed (1)
#   N        shards (16): the same as the array's size (--array=1-N)
#   CAIRN    the cairn program on the nodes (cairn)
# `make slurm-rehearsal` runs this on a one-node Slurm on this machine
# (tools/slurm-rehearsal).
#SBATCH --job-name=cairn-sim
#SBATCH --cpus-per-task=4
#SBATCH --time=00:30:00
#SBATCH --output=parts/slurm-%A_%a.out
RULESET=${RULESET:-yak}
GAMES=${GAMES:-20000}
SEED=${SEED:-1}
N=${N:-16}
CAIRN=${CAIRN:-cairn}
exec "$CAIRN" sim "$RULESET" --games "$GAMES" --seed "$SEED" --shard "$SLURM_ARRAY_TASK_ID/$N" \
  --quiet --json "parts/part-$SLURM_ARRAY_TASK_ID.json"
