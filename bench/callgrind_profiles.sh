#!/bin/sh
# Host instructions per simulated warp instruction, per profile (docs/performance.md):
# callgrind's instruction count inside sm_sim_run over one chip (`model_bench --once
# PROFILE`: 15 SM runs, ideal technique, all-fast map) divided by the warp instructions
# the run prints.  Deterministic for a binary, so comparable on a loaded machine.
# With TECHNIQUE=NAME in the environment: preset NAME on --digest's 70 % stand-in map
# (`model_bench --once-technique NAME PROFILE`) instead of ideal.
# usage: [TECHNIQUE=NAME] bench/callgrind_profiles.sh [MODEL_BENCH] [PROFILE...]
set -eu
# valgrind and bc are Debian packages like the build's: installed when missing
if ! command -v valgrind >/dev/null || ! command -v bc >/dev/null; then
    "$(dirname "$0")/../scripts/install-deps.sh" valgrind bc
fi
bin=${1:-build/bench/model_bench}
[ $# -gt 0 ] && shift
if [ -n "${TECHNIQUE:-}" ]; then once="--once-technique $TECHNIQUE"; else once=--once; fi
profiles=${*:-$("$bin" $once | awk '{print $1}')}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-16s %14s %12s %10s\n' profile host_instr warp_insts per_winst
for p in $profiles; do
    valgrind --tool=callgrind --callgrind-out-file="$tmp/out" --toggle-collect=sm_sim_run \
        "$bin" $once "$p" >"$tmp/stdout" 2>"$tmp/stderr"
    ir=$(callgrind_annotate "$tmp/out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
    wi=$(awk '{print $2}' "$tmp/stdout")
    printf '%-16s %14s %12s %10.1f\n' "$p" "$ir" "$wi" "$(echo "$ir / $wi" | bc -l)"
done
