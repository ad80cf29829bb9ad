#!/usr/bin/env bash
# The driver's benchmark (issue 5): wall time of the default sweep with 1 and 2 ranks,
# units per second, and peak resident memory per rank at 100 and 1000 chips.
# Usage: dse_bench.sh RFDSE
set -eu
rfdse=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi

wall() { # wall NAME command... -> prints seconds, keeps the report line in $tmp/NAME.log
  local name=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > "$tmp/$name.log"
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }'
}
report() { grep '^rfdse: .* units in' "$tmp/$1.log" || true; }

echo "== default sweep (sweeps/default.cfg, built in)"
t1=$(wall n1 "$rfdse" run -o "$tmp/d1.h5")
report n1
t2=$(wall n2 mpirun -n 2 "$rfdse" run -o "$tmp/d2.h5")
report n2
printf -- "-n 1: %.1f s   -n 2: %.1f s   speed-up %.2fx\n" "$t1" "$t2" "$(awk -v a="$t1" -v b="$t2" 'BEGIN { print a / b }')"
h5diff -r "$tmp/d1.h5" "$tmp/d2.h5" /results /results >/dev/null && echo "(-n 1 and -n 2 results bit-identical)"

echo "== cost of the aging loop (default sweep, mpirun -n 2)"
t3=$(wall na mpirun -n 2 "$rfdse" run "$here/sweeps/default-no-aging.cfg" -o "$tmp/na.h5")
report na
printf -- "with aging (8 years): %.1f s   time zero only: %.1f s   aging adds %.0f %%\n" "$t2" "$t3" \
  "$(awk -v a="$t2" -v b="$t3" 'BEGIN { print 100 * (a - b) / b }')"

echo "== peak memory per rank (bench/sweeps/memory.cfg, mpirun -n 2)"
for chips in 100 1000; do
  t=$(wall "m$chips" mpirun -n 2 "$rfdse" run "$here/sweeps/memory.cfg" --chips "$chips" -o "$tmp/m$chips.h5")
  printf -- "%5d chips: %.1f s  " "$chips" "$t"; report "m$chips"
done
