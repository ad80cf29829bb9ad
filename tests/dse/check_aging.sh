#!/usr/bin/env bash
# check_aging.sh RFDSE: properties of the NBTI aging loop on a small real sweep.
# - frequency never rises over the schedule, for every technique and chip;
# - ideal stays at 1 with zero guardband; raw guardbands are >= 0 and finite with aging;
# - the baseline's normalised guardband is 1 wherever its raw one is positive;
# - raw guardband = 1 - f_end / f_0 of the mix is at most the harshest workload's;
# - a sweep without aging (years = [0]) has NaN for guardbands and later years;
# - more aging (larger kv) never gives a smaller guardband.
set -u
rfdse=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/a.cfg" <<'CFG'
chips = { count = 3; seed = 5L; };
techniques = ( "ideal", "baseline", "vl_rf", "vl_rv", "vl_sb", "rf_bro", "pv_opt", "nbti_opt",
               "pv_opt_nbti_opt" );
workloads = ( "nn", "hotspot", "histogram64" );
CFG
sed 's/^chips.*/&\naging = { years = [0.0, 1.0, 3.0, 7.0]; kv = 3.0e-7; };/' "$tmp/a.cfg" > "$tmp/strong.cfg"
sed 's/^chips.*/&\naging = { years = [0.0, 1.0, 3.0, 7.0]; };/' "$tmp/a.cfg" > "$tmp/sched.cfg"
printf 'aging = { years = [0.0]; };\n' >> "$tmp/a.cfg"
cp "$tmp/a.cfg" "$tmp/none.cfg"; sed -i '$d' "$tmp/a.cfg"
for s in a none strong sched; do
  "$rfdse" run "$tmp/$s.cfg" -o "$tmp/$s.h5" --quiet || { echo "FAIL: run $s"; exit 1; }
done
/usr/bin/python3 - "$tmp" <<'PY'
import sys, h5py, numpy as np
d = sys.argv[1]
f = h5py.File(d + "/a.h5", "r")
t = [x.decode() for x in f["/axes/technique"][...]]
fr, fmin = f["/results/frequency"][...], f["/results/frequency_min"][...]
raw, gb = f["/results/guardband_raw"][...], f["/results/guardband"][...]
assert fr.shape[2] == 8 and np.isfinite(fr).all(), "frequency for every default year"
assert (np.diff(fr, axis=2) <= 1e-15).all(), "frequency rose over the schedule"
assert (np.diff(fmin, axis=2) <= 1e-15).all(), "slowest-SM frequency rose over the schedule"
assert (fmin <= fr + 1e-15).all(), "min over SMs above the mean"
i = t.index("ideal"); assert (fr[:, i] == 1).all() and (raw[:, i] == 0).all()
assert np.isfinite(raw).all() and (raw >= 0).all(), "raw guardband finite and >= 0"
b = t.index("baseline"); assert np.allclose(gb[:, b][raw[:, b] > 0], 1.0)
for k, name in enumerate(t):
    if name == "ideal": continue
    mix = 1 - fr[:, k, -1] / fr[:, k, 0]
    hi = raw[:, k].max(axis=1)
    # Each register's duty under the mix is a weighted mean of the workloads' and its
    # shift grows with duty, so no register ages more than under the harshest workload:
    # the mix's loss is at most the largest.  It may fall below the smallest: workloads
    # that wear different registers hardest leave the mix no register as worn as any
    # of them wears its own (vl_rf on nn, hotspot, histogram64: 0.104 < 0.105).
    assert (mix <= hi + 1e-9).all(), name + ": mix ages more than its harshest workload"
    assert (fr[:, k, -1] < fr[:, k, 0]).all(), name + ": no aging at all"
# the guardband lifetime performance pays: the mix's, per year, from the file's frequency
gm, gmr = f["/results/guardband_mix"][...], f["/results/guardband_mix_raw"][...]
assert np.allclose(gmr, 1 - fr / fr[:, :, :1], rtol=1e-12, atol=1e-15), "guardband_mix_raw"
assert np.isnan(gm[:, :, 0]).all() and np.isfinite(gm[:, :, 1:]).all(), "guardband_mix"
assert np.allclose(gm[:, b, 1:], 1.0, rtol=1e-12), "baseline's mix guardband is the normaliser"
assert (gm[:, i, 1:] == 0).all()
assert f.attrs["aging_duty"].decode() == "access", f.attrs["aging_duty"]
col = f.attrs["technique_colours"].decode().split(",")
assert len(col) == len(t) and len(set(col)) == len(t), col
assert col[i] == "#000000" and col[b] == "#777777"
n = h5py.File(d + "/none.h5", "r")
assert np.isnan(n["/results/guardband_mix"][...]).all()
assert n["/axes/year"].shape == (1,) and np.isnan(n["/results/guardband"][...]).all()
s = h5py.File(d + "/strong.h5", "r")["/results/guardband_raw"][...]
r = h5py.File(d + "/sched.h5", "r")["/results/guardband_raw"][...]
assert (s >= r - 1e-15).all() and (s[:, 1:] > r[:, 1:]).any(), "larger kv, smaller guardband"
print("ok: aging loop properties; mean raw guardband per technique:")
for k, name in enumerate(t):
    print(f"  {name:16s} {raw[:, k].mean():.4f}  normalised {np.nanmean(gb[:, k]):.3f}")
PY
