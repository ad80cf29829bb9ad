#!/usr/bin/env bash
# check_reuse.sh RFDSE SWEEP: the run cache never changes a result: every preset, with
# and without reuse, gives bit-identical /results and /chips (tests/sweeps/good/
# all_presets.cfg), and the reuse run did reuse runs.  Also: rf_energy's normalisation,
# and a sweep_config over 64 KiB stored and read back (resume reads it too).
set -u
rfdse=$1 sweep=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
"$rfdse" run "$sweep" -o "$tmp/reuse.h5" >"$tmp/log" || { echo "FAIL: run"; exit 1; }
"$rfdse" run "$sweep" -o "$tmp/noreuse.h5" --quiet --no-reuse || { echo "FAIL: --no-reuse run"; exit 1; }
"$rfdse" run "$sweep" -o "$tmp/noreuse.h5" --quiet --resume || { echo "FAIL: resume"; exit 1; }
grep -o 'simulated [0-9]*, reused [0-9]*' "$tmp/log"
grep -q 'reused [1-9]' "$tmp/log" || { echo "FAIL: nothing was reused"; fail=1; }
for g in /results /chips; do
  h5diff -r "$tmp/reuse.h5" "$tmp/noreuse.h5" "$g" "$g" >"$tmp/diff" 2>&1 ||
    { echo "FAIL: $g differs with --no-reuse"; head -20 "$tmp/diff"; fail=1; }
done
# rf_energy is (dynamic + leakage) over the ideal technique's, from the file's own data,
# for every technique, the register-file caches too (their joules include the cache's,
# rfc_energy, zero for every other technique); rf_dynamic + rf_leakage = rf_energy.
/usr/bin/python3 - "$tmp/reuse.h5" <<'PY' || { echo "FAIL: rf_energy is not total over ideal"; fail=1; }
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
tech = [t.decode() for t in f["axes/technique"][:]]
tot = f["results/rf_energy_dynamic"][...] + f["results/rf_energy_leakage"][...]
ideal = tot[:, tech.index("ideal"), :]
rel = f["results/rf_energy"][...]
cache = np.array([t.startswith("ltrf") or t == "rfc_demand" for t in tech])
assert cache.sum() == 3, "all_presets.cfg holds the register-file caches"
assert np.all(tot > 0)
assert np.allclose(rel, tot / ideal[:, None, :], rtol=1e-12, atol=0), "normalisation"
parts = f["results/rf_dynamic"][...] + f["results/rf_leakage"][...]
assert np.allclose(parts, rel, rtol=1e-12, atol=0), "rf_dynamic + rf_leakage"
cache_j = f["results/rfc_energy"][...]
assert np.all(cache_j[:, cache] > 0) and np.all(cache_j[:, ~cache] == 0), "rfc_energy"
assert np.all(cache_j[:, cache] < tot[:, cache]), "the cache is part of the total"
assert np.all(rel[:, tech.index("ideal"), :] == 1.0)
b = tech.index("baseline")
print(f"ok: rf_energy, baseline over ideal: {rel[:, b, :].mean():.4f}")
# 25 techniques make sweep_config longer than an attribute in the object header may be
# (64 KiB): it is a variable-length string, which h5py reads like the short ones
cfg = f.attrs["sweep_config"]
assert isinstance(cfg, str) and len(cfg) > 65536 and "ltrf_cells2_rot" in cfg, len(cfg)
PY
exit $fail
