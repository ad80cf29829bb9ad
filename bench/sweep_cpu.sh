#!/bin/sh
# CPU seconds of reference sweeps with two rfdse binaries, cold and with a warm run store
# (docs/performance.md, "The non-SM cost of the guardband and ltrf sweeps").  Per sweep,
# each binary first fills a store of its own (one run with --run-store); then ROUNDS
# rounds, each: A cold, B cold (no store), A warm, B warm (its store again).  Every run is
# `mpirun -n RANKS`, timed by /usr/bin/time (user + system of mpirun and its ranks).
# usage: bench/sweep_cpu.sh RFDSE_A RFDSE_B [CHIPS [ROUNDS [RANKS [SWEEPS...]]]]
#   defaults: 100 chips, 3 rounds, 2 ranks, guardband guardband-pv guardband-rr ltrf
#   frequency.  Prints CSV: sweep,mode,binary,round,user_s,sys_s,wall_s,load1_before,
#   load1_after (mode fill, cold or warm; the 1-minute load average around the run).
set -eu
a=$1 b=$2 chips=${3:-100} rounds=${4:-3} ranks=${5:-2}
shift $(($# < 5 ? $# : 5))
sweeps=${*:-guardband guardband-pv guardband-rr ltrf frequency}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
echo "sweep,mode,binary,round,user_s,sys_s,wall_s,load1_before,load1_after"
one() { # SWEEP MODE A|B ROUND [--run-store DIR]
    sw=$1 mode=$2 which=$3 round=$4
    shift 4
    bin=$a
    [ "$which" = B ] && bin=$b
    l0=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f "%U,%S,%e" -o "$tmp/time" mpirun -n "$ranks" "$bin" run \
        "sweeps/reference/$sw.cfg" --chips "$chips" --force -o "$tmp/out.h5" "$@" \
        >"$tmp/log" 2>&1 || { echo "$sw $mode $which failed:" >&2; cat "$tmp/log" >&2; exit 1; }
    echo "$sw,$mode,$which,$round,$(cat "$tmp/time"),$l0,$(cut -d' ' -f1 /proc/loadavg)"
}
for sw in $sweeps; do
    for w in A B; do
        one "$sw" fill "$w" 0 --run-store "$tmp/store-$w"
    done
    r=1
    while [ "$r" -le "$rounds" ]; do
        for w in A B; do one "$sw" cold "$w" "$r"; done
        for w in A B; do one "$sw" warm "$w" "$r" --run-store "$tmp/store-$w"; done
        r=$((r + 1))
    done
    rm -rf "$tmp/store-A" "$tmp/store-B"
done
