#!/usr/bin/env bash
# check_analyze.sh RFDSE ANA_SYNTH: `rfdse analyze` from the command line on synthetic
# files: table, CSV and figures; /results bit-identical across re-runs; bad files give one
# line on stderr and exit status 2, and leave every file alone.
set -u
rfdse=$1 synth=$2 fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; fail=1; }

"$synth" results "$tmp/run.h5" 30 || { echo "FAIL: ana_synth"; exit 1; }
cp "$tmp/run.h5" "$tmp/orig.h5"

# First run: table on stdout, techniques as rows; CSV; figures.
"$rfdse" analyze "$tmp/run.h5" --csv "$tmp/csv" --figures "$tmp/fig" >"$tmp/out" 2>"$tmp/err" \
  || { bad "analyze exit status $?"; cat "$tmp/err"; }
grep -q '^technique ' "$tmp/out" || bad "no table header"
grep -q '^pv_opt_nbti_opt ' "$tmp/out" || bad "no row for pv_opt_nbti_opt"
[ "$(grep -c '^technique ' "$tmp/out")" -eq 1 ] || bad "table header printed more than once"
# Two tidy CSV files by default (issue 33 item 8: one sweep gave 43, two per view).
[ "$(ls "$tmp/csv" | tr '\n' ' ')" = "run_per_chip.csv run_stats.csv " ] \
  || bad "CSV files by default: $(ls "$tmp/csv" | tr '\n' ' ')"
head -1 "$tmp/csv/run_stats.csv" | grep -q '^view,technique,benchmark,year,n,n_nan,mean,std,ci95_low' \
  || bad "CSV header"
[ "$(grep -c '^chip_performance,' "$tmp/csv/run_stats.csv")" -eq 13 ] || bad "CSV rows (13 techniques)"
grep -q '^frequency,baseline,,0,' "$tmp/csv/run_stats.csv" || bad "no per-year row of frequency"
# The histograms on request, one file: one row per bin of every view (bins: the views'
# own counts, read from /analysis).
"$rfdse" analyze "$tmp/run.h5" --csv "$tmp/csvh" --csv-histograms >/dev/null 2>&1 || bad "--csv-histograms"
[ "$(ls "$tmp/csvh" | tr '\n' ' ')" = "run_hist.csv run_per_chip.csv run_stats.csv " ] \
  || bad "CSV files with --csv-histograms: $(ls "$tmp/csvh" | tr '\n' ' ')"
bins=$(/usr/bin/python3 - "$tmp/run.h5" <<'PY'
import sys, h5py
n = 0
def visit(name, obj):
    global n
    if isinstance(obj, h5py.Dataset) and name.endswith("/histogram"):
        n += obj.size
h5py.File(sys.argv[1], "r")["/analysis"].visititems(visit)
print(n)
PY
)
[ "$(($(wc -l < "$tmp/csvh/run_hist.csv") - 1))" = "$bins" ] || bad "histogram rows $(wc -l < "$tmp/csvh/run_hist.csv") - 1, bins in /analysis $bins"
"$rfdse" analyze "$tmp/run.h5" --csv-histograms >/dev/null 2>&1; [ $? -eq 2 ] || bad "--csv-histograms without --csv accepted"
for f in freq_dist perf_dist overview ipc guardband nbti_trace; do
  [ -s "$tmp/fig/run_$f.png" ] || bad "figure $f missing"
done

# /results (and every other group) untouched by analyze, also when re-run; /analysis
# identical across runs but for its time stamp.
"$rfdse" analyze "$tmp/run.h5" >/dev/null 2>&1 || bad "second analyze"
for g in /results /axes /progress /chips; do
  h5diff -r "$tmp/orig.h5" "$tmp/run.h5" "$g" "$g" >/dev/null 2>&1 || bad "$g changed by analyze"
done
cp "$tmp/run.h5" "$tmp/first.h5"
"$rfdse" analyze "$tmp/run.h5" >/dev/null 2>&1 || bad "third analyze"
# (h5diff cannot leave out one attribute, and `created` changes when the two runs
# straddle a second boundary, so the comparison walks the groups with h5py.)
/usr/bin/python3 - "$tmp/first.h5" "$tmp/run.h5" <<'PY' || bad "/analysis differs between runs"
import sys, h5py, numpy as np
a, b = (h5py.File(f, "r")["/analysis"] for f in sys.argv[1:3])
# Dimension-scale bookkeeping holds object references (file addresses): compared by the
# names of the attached scales instead.
SKIP = ("created", "DIMENSION_LIST", "REFERENCE_LIST")
def attrs(o):
    a = {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in o.attrs.items() if k not in SKIP}
    if isinstance(o, h5py.Dataset):
        a["dims"] = [[s.name.split("/")[-1] for s in d.values()] for d in o.dims]
    return a
def same(x, y):
    if attrs(x) != attrs(y) or isinstance(x, h5py.Group) != isinstance(y, h5py.Group):
        return False
    if isinstance(x, h5py.Group):
        return sorted(x) == sorted(y) and all(same(x[k], y[k]) for k in x)
    return np.array_equal(x[...], y[...], equal_nan=x.dtype.kind == "f")
sys.exit(0 if same(a, b) else 1)
PY
# The checker can fail: a changed value in /results is seen.
"$synth" results "$tmp/other.h5" 30 2.0
h5diff -r "$tmp/orig.h5" "$tmp/other.h5" /results /results >/dev/null 2>&1 \
  && bad "h5diff does not see a different /results"
ls "$tmp" | grep -q 'analyze-' && bad "temporary file left behind"

# Bad input: one line on stderr, exit 2, nothing written.
"$synth" foreign "$tmp/foreign.h5"
echo "plain text" > "$tmp/text.h5"
head -c 3000 "$tmp/orig.h5" > "$tmp/truncated.h5"
for f in foreign.h5 text.h5 truncated.h5 missing.h5; do
  cp "$tmp/orig.h5" "$tmp/good.h5"
  "$rfdse" analyze "$tmp/good.h5" "$tmp/$f" >/dev/null 2>"$tmp/err"; st=$?
  [ $st -eq 2 ] || bad "$f: exit status $st, expected 2"
  [ "$(wc -l < "$tmp/err")" -eq 1 ] || { bad "$f: stderr is not one line:"; cat "$tmp/err"; }
  grep -q "^rfdse analyze: $tmp/$f: " "$tmp/err" || bad "$f: message does not name the file"
  cmp -s "$tmp/orig.h5" "$tmp/good.h5" || bad "$f: the good file was modified"
  echo "ok: $f -> $(cat "$tmp/err")"
done
"$rfdse" analyze >/dev/null 2>&1; [ $? -eq 2 ] || bad "no file: exit status"
"$rfdse" analyze "$tmp/run.h5" --bogus >/dev/null 2>&1; [ $? -eq 2 ] || bad "unknown option"
"$rfdse" analyze "$tmp/run.h5" --figures >/dev/null 2>&1; [ $? -eq 2 ] || bad "--figures without DIR"

# A missing axis: the figures that need it are skipped with a note, the rest succeeds.
"$synth" results "$tmp/nobench.h5" 20 --no-benchmark-axis
"$rfdse" analyze "$tmp/nobench.h5" --figures "$tmp/fig2" >/dev/null 2>"$tmp/err" \
  || bad "missing axis: exit status"
grep -q "skipped figure ipc: .*/axes/benchmark" "$tmp/err" || bad "missing axis: no note"
[ -s "$tmp/fig2/nobench_freq_dist.png" ] || bad "missing axis: frequency figure missing"

# (The examples of docs/results-format.md run in check_docs.sh.)
# A file from a real (tiny) sweep with aging and a traced chip: every figure its data
# support is drawn (the aging ones included), and each is a PNG.
timeout 300 "$rfdse" run "$(dirname "$0")/tiny.cfg" -o "$tmp/tiny.h5" --force --quiet \
  >/dev/null 2>"$tmp/err" || { bad "rfdse run tiny.cfg"; cat "$tmp/err"; }
"$rfdse" analyze "$tmp/tiny.h5" --figures "$tmp/fig3" >"$tmp/out" 2>"$tmp/err" \
  || { bad "analyze on a real sweep"; cat "$tmp/err"; }
for f in freq_dist perf_dist overview ipc guardband nbti_trace energy; do
  head -c 8 "$tmp/fig3/tiny_$f.png" 2>/dev/null | grep -q PNG || bad "real sweep: no $f figure"
done
# The sweep ages, so the table says its performance is the lifetime one and shows the
# time-zero one beside it; the lifetime mean is IPC x end-of-schedule frequency (model.md
# section 8), checked against the file's own datasets.
grep -q 'perf_life.*perf_t0' "$tmp/out" || bad "real sweep: table lacks perf_life / perf_t0"
grep -q 'perf_life = lifetime performance (IPC x frequency after 7 years' "$tmp/out" \
  || bad "real sweep: table does not say which performance it shows"
/usr/bin/python3 - "$tmp/tiny.h5" "$tmp/out" <<'PY2' || bad "real sweep: perf_life is not IPC x f(end)"
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
life = (f["/results/ipc"][...] * f["/results/frequency"][:, :, -1:]).mean(axis=2).mean(axis=0)
t0 = (f["/results/ipc"][...] * f["/results/frequency"][:, :, :1]).mean(axis=2).mean(axis=0)
lines = open(sys.argv[2]).read().splitlines()
head = lines[1].split()
for k, name in enumerate(x.decode() for x in f["/axes/technique"][...]):
    row = next(l.split() for l in lines if l.split()[:1] == [name])
    got_l, got_0 = float(row[head.index("perf_life")]), float(row[head.index("perf_t0")])
    assert abs(got_l - life[k]) < 6e-5 and abs(got_0 - t0[k]) < 6e-5, (name, got_l, life[k])
    # the guardband perf_life pays (the mix's, last year) and the energy's two parts
    gm = np.nanmean(f["/results/guardband_mix"][:, k, -1])
    got = row[head.index("gb_mix")]
    assert (got == "-" and np.isnan(gm)) or abs(float(got) - gm) < 6e-5, (name, got, gm)
    e = [float(row[head.index(c)]) for c in ("rf_energy", "e_dyn", "e_leak")]
    assert abs(e[1] + e[2] - e[0]) < 2e-4, (name, e)
assert "NBTI stress duty: access" in lines[0], lines[0]
PY2
# The scripts analyze sends gnuplot (a wrapper on PATH keeps a copy): the NBTI trace's
# duty panel covers the intervals inside the schedule (0-7 y here; it once was labelled
# "interval from t = 7 y", past the schedule's end) and names the stress duty; the
# guardband figure names the duty and draws the mix; every figure draws rf_bro in the
# colour the file's technique_colours give it.
mkdir -p "$tmp/bin" "$tmp/gp"
printf '#!/bin/sh\ntee "%s/gp/$$.gp" | exec "%s" "$@"\n' "$tmp" "$(command -v gnuplot)" \
  >"$tmp/bin/gnuplot"
chmod +x "$tmp/bin/gnuplot"
PATH="$tmp/bin:$PATH" "$rfdse" analyze "$tmp/tiny.h5" --figures "$tmp/fig4" >/dev/null 2>&1 \
  || bad "analyze through the gnuplot wrapper"
trace=$(grep -l 'which sub-banks age' "$tmp"/gp/*.gp)
gb=$(grep -l 'NBTI guardband' "$tmp"/gp/*.gp)
[ -n "$trace" ] && ! grep -q 'interval from t = 7' $trace && grep -q 'mean over 0-7 y' $trace &&
  grep -q 'access duty' $trace || bad "nbti_trace: the duty panel's interval or duty"
[ -n "$gb" ] && grep -q 'access stress duty' $gb && grep -q 'workload mix' $gb ||
  bad "guardband: no duty or no mix group"
colour=$(/usr/bin/python3 -c 'import sys, h5py; f = h5py.File(sys.argv[1], "r")
t = [x.decode() for x in f["axes/technique"][...]]
print(f.attrs["technique_colours"].decode().split(",")[t.index("rf_bro")])' "$tmp/tiny.h5")
[ "$(grep -l "${colour#\#}" "$tmp"/gp/*.gp | wc -l)" -ge 5 ] ||
  bad "rf_bro's colour $colour is not in every figure"
echo "ok: real sweep: $(ls "$tmp/fig3" | tr '\n' ' ')"
[ $fail -eq 0 ] && echo "ok: analyze command line"
exit $fail
