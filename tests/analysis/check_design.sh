#!/usr/bin/env bash
# check_design.sh RFDSE SWEEP: rfdse analyze on a file with design points (a 2 x 2 grid)
# prints a row per (point, technique), writes CSV with knob columns and the heat map and
# Pareto figures with their CSV; the 1-D figure comes from a one-knob file.
set -u
rfdse=$1 sweep=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
"$rfdse" run "$sweep" -o "$tmp/g.h5" --quiet || { echo "FAIL: run"; exit 1; }
"$rfdse" analyze "$tmp/g.h5" --figures "$tmp/fig" --csv "$tmp/csv" > "$tmp/out" 2>"$tmp/err" \
  || { echo "FAIL: analyze"; cat "$tmp/err"; exit 1; }
rows=$(grep -cE '^[0-9]+ ' "$tmp/out")
[ "$rows" -eq 8 ] || { echo "FAIL: $rows table rows, expected 4 points x 2 techniques"; fail=1; }
for f in fig/g_heatmap.png fig/g_pareto.png fig/g_pareto.csv csv/g_points.csv csv/g_per_chip.csv; do
  [ -s "$tmp/$f" ] || { echo "FAIL: $f missing"; fail=1; }
done
/usr/bin/python3 - "$tmp" <<'PY' || fail=1
import sys, csv
d = sys.argv[1]
pts = list(csv.DictReader(open(d + "/csv/g_points.csv")))
assert len(pts) == 4 * 2 * 4, len(pts)  # points x techniques x quantities
assert {"variation.vth_sigma", "techniques[vl_sb].fast_percent"} <= set(pts[0]), pts[0].keys()
per = list(csv.DictReader(open(d + "/csv/g_per_chip.csv")))
assert per and "variation.vth_sigma" in per[0] and "point" in per[0]
perf = [r for r in pts if r["quantity"] == "performance"]
base = [float(r["paired_minus_baseline"]) for r in perf if r["technique"] == "baseline"]
assert all(b == 0.0 for b in base), base           # baseline minus itself
gain = [float(r["paired_minus_baseline"]) for r in perf if r["technique"] == "vl_sb"]
assert all(g > 0 for g in gain), gain               # vl_sb gains at every point
par = list(csv.DictReader(open(d + "/fig/g_pareto.csv")))
assert len(par) == 8 and 1 <= sum(int(r["on_front"]) for r in par) < 8, par
print("ok: CSV with knob columns; paired gains; a Pareto front")
PY
# One knob: the 1-D figure.
sed '/techniques\[vl_sb\]/d; s/values = \[0.08, 0.16\]; },/values = [0.08, 0.16]; }/' "$sweep" > "$tmp/one.cfg"
"$rfdse" run "$tmp/one.cfg" -o "$tmp/one.h5" --quiet || { echo "FAIL: one-knob run"; exit 1; }
"$rfdse" analyze "$tmp/one.h5" --figures "$tmp/fig" >/dev/null 2>&1 || { echo "FAIL: analyze one knob"; fail=1; }
[ -s "$tmp/fig/one_knob.png" ] || { echo "FAIL: one_knob.png missing"; fail=1; }
[ $fail -eq 0 ] && echo "ok: design analysis"
exit $fail
