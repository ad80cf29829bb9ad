#!/usr/bin/env bash
# check_axes_reuse.sh RFDSE SWEEP: SWEEP has one axis over an aging knob.  Its run must
# simulate exactly the SM runs a plain run of its point 0 simulates (every other point
# reuses them: the run cache's key holds every input of an SM run, and the aging knobs
# are none), and --dry-run must say the points form one group.
set -u
rfdse=$1 sweep=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
simulated() { sed -n 's/.*SM runs simulated \([0-9]*\), reused \([0-9]*\).*/\1 \2/p' "$1"; }
"$rfdse" run "$sweep" -o "$tmp/a.h5" > "$tmp/a.log" || { echo "FAIL: run"; exit 1; }
"$rfdse" validate --point 0 "$sweep" > "$tmp/p0.cfg" || { echo "FAIL: validate --point 0"; exit 1; }
"$rfdse" run "$tmp/p0.cfg" -o "$tmp/p0.h5" > "$tmp/p0.log" || { echo "FAIL: plain run"; exit 1; }
read -r sa ra <<<"$(simulated "$tmp/a.log")"
read -r sp rp <<<"$(simulated "$tmp/p0.log")"
echo "axis run: simulated $sa, reused $ra; plain run of point 0: simulated $sp, reused $rp"
[ -n "$sa" ] && [ "$sa" -eq "$sp" ] || { echo "FAIL: the points re-simulated SM runs"; fail=1; }
[ -n "$ra" ] && [ "$ra" -gt "$rp" ] || { echo "FAIL: no runs reused across points"; fail=1; }
# The comparison can fail: without reuse every run is simulated.
"$rfdse" run "$sweep" -o "$tmp/n.h5" --no-reuse > "$tmp/n.log" || { echo "FAIL: --no-reuse run"; exit 1; }
read -r sn rn <<<"$(simulated "$tmp/n.log")"
[ "$sn" -gt "$sa" ] || { echo "FAIL: --no-reuse simulated $sn, not more than $sa"; fail=1; }
h5diff -r "$tmp/a.h5" "$tmp/n.h5" /results /results >/dev/null || { echo "FAIL: reuse changed results"; fail=1; }
"$rfdse" run "$sweep" --dry-run | grep -q "1 group of 4 points" || { echo "FAIL: --dry-run groups"; fail=1; }
[ $fail -eq 0 ] && echo "ok: an aging-only axis re-simulates nothing ($sa runs for 4 points, as for 1)"
exit $fail
