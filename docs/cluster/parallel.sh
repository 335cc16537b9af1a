#!/bin/sh
# docs/cluster/parallel.sh: one cairn sim run spread over machines with GNU
# parallel, merged into one report (docs/simulation.md, "Many machines").
# Each host needs cairn and the ruleset, at any path: the parts are matched
# by the ruleset's fingerprint. Settings (environment):
#   RULESET  the ruleset's name or folder on the hosts (yak)
#   GAMES    games in all (20000); SEED the first game's seed (1)
#   N        shards (16): more shards than cores evens out slow hosts
#   HOSTS    parallel's --sshlogin list: "4/host1,4/host2" runs four shards
#            at a time on each host; ":" is this machine (the default)
#   CAIRN    the cairn program on the hosts (cairn)
#   OUT      where the merged report goes: OUT.txt, OUT.json, OUT.csv
#            (RULESET-GAMES in this folder)
# The parts come back to this folder as part-K.json (--return) and stay
# there, so a failed shard can be run again alone and the merge repeated.
set -eu
RULESET=${RULESET:-yak}
GAMES=${GAMES:-20000}
SEED=${SEED:-1}
N=${N:-16}
HOSTS=${HOSTS:-:}
CAIRN=${CAIRN:-cairn}
OUT=${OUT:-$(basename "$RULESET")-$GAMES}

seq "$N" | parallel --sshlogin "$HOSTS" --return part-{}.json --cleanup --halt now,fail=1 \
    "$CAIRN" sim "$RULESET" --games "$GAMES" --seed "$SEED" --shard {}/"$N" --jobs 1 --quiet --json part-{}.json ">/dev/null"
# shellcheck disable=SC2046
"$CAIRN" sim merge $(seq -f "part-%g.json" "$N") --json "$OUT.json" --csv "$OUT.csv" >"$OUT.txt"
echo "merged $N parts: $OUT.txt, $OUT.json, $OUT.csv"
