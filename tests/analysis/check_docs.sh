#!/usr/bin/env bash
# check_docs.sh RFDSE SOURCE_DIR: what docs/results-format.md promises users of their own
# tools, on a file made the way `make run` makes results/default.h5 (the built-in
# default sweep, 2 chips to keep it short):
#  - every ```python example of the page runs as written;
#  - every group opens in xarray (engine h5netcdf) with named dimensions, no phony_dims;
#  - the per-chip CSV equals the HDF5 values exactly;
#  - analyze on a read-only results file writes --csv and --figures, notes that
#    /analysis is left out, and fails without them.
set -u
rfdse=$1 src=$2
tmp=$(mktemp -d); ro=""
trap '[ -n "$ro" ] && umount "$ro"; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
py=/usr/bin/python3
mkdir results
"$rfdse" run -o results/default.h5 --chips 2 --quiet || bad "the default sweep"
"$rfdse" analyze results/default.h5 --csv csv >/dev/null 2>"$tmp/note" || bad "analyze --csv"
grep -q "wrote .* CSV files to csv" "$tmp/note" || bad "analyze does not say which files it wrote"
# the design-point example ("Design points"): a 4 x 3 grid
"$rfdse" run "$src/tests/sweeps/good/axes_grid.cfg" -o results/axes_grid.h5 --quiet || bad "the grid sweep"

# 1. The page's examples, as written.
"$py" - "$src/docs/results-format.md" <<'PY' >"$tmp/blocks.txt" || bad "no examples found"
import re, sys
blocks = re.findall(r"```python\n(.*?)```", open(sys.argv[1]).read(), re.S)
for i, b in enumerate(blocks):
    open(f"example{i}.py", "w").write(b)
print(len(blocks))
sys.exit(0 if blocks else 1)
PY
for f in example*.py; do
  "$py" "$f" >"$tmp/out" 2>&1 && echo "ok: $f ($(wc -l <"$tmp/out") lines of output)" ||
    { bad "$f of docs/results-format.md"; cat "$tmp/out"; }
done

# 2. xarray: named dimensions everywhere, coordinates that label them.
"$py" - <<'PY' || bad "xarray"
import xarray as xr
want = {"chip", "technique", "benchmark", "year", "sm", "sub_bank", "bin", "edge"}
for g in ["results", "chips", "progress", "chips/trace", "analysis/ipc", "analysis/frequency",
          "analysis/chip_performance"]:
    ds = xr.open_dataset("results/default.h5", engine="h5netcdf", group=g)
    dims = set(ds.dims)
    assert dims <= want, (g, dims)
    assert all(d in ds.coords for d in dims), (g, "unlabelled", dims - set(ds.coords))
    print("ok:", g, sorted(dims))
r = xr.open_dataset("results/default.h5", engine="h5netcdf", group="results")
assert list(r.performance.dims) == ["chip", "technique", "benchmark"]
assert isinstance(r.technique.values[0], str)
PY

# 3. The per-chip CSV holds exactly the HDF5 values (and the checker can fail).
check_csv() {
"$py" - "$1" <<'PY'
import sys, h5py, numpy as np, pandas as pd
df = pd.read_csv(sys.argv[1], float_precision="round_trip")
f = h5py.File("results/default.h5", "r")
tech = [t.decode() for t in f["axes/technique"][:]]
bench = [b.decode() for b in f["axes/benchmark"][:]]
years = list(f["axes/year"][:])
n = 0
for m, g in df.groupby("metric"):
    a = f["results/" + m][...]
    x = [bench.index(b) if isinstance(b, str) else years.index(y) for b, y in zip(g.benchmark, g.year)]
    got = a[g.chip.to_numpy(), [tech.index(t) for t in g.technique], x]
    assert np.array_equal(got, g.value.to_numpy(), equal_nan=True), m
    n += a.size
assert n == len(df), (n, len(df))
print(f"ok: {len(df)} rows equal to /results")
PY
}
check_csv csv/default_per_chip.csv || bad "per-chip CSV differs from /results"
sed '2s/,[^,]*$/,0.123/' csv/default_per_chip.csv > changed.csv
check_csv changed.csv >/dev/null 2>&1 && bad "the CSV check misses a changed value"

# 4. A read-only results file: CSV and figures still, /analysis left out with a note.
mkdir rodir; cp results/default.h5 rodir/; sum=$(md5sum < rodir/default.h5)
if [ "$(id -u)" -eq 0 ]; then
  mount --bind rodir rodir && mount -o remount,ro,bind rodir && ro="$tmp/rodir"
else chmod a-w rodir rodir/default.h5; fi
if [ -n "$ro" ] || [ "$(id -u)" -ne 0 ]; then
  "$rfdse" analyze rodir/default.h5 --csv csv2 --figures figs >/dev/null 2>"$tmp/note" ||
    { bad "analyze --csv --figures on a read-only file"; cat "$tmp/note"; }
  grep -q "read-only: /analysis not written" "$tmp/note" || bad "no note about /analysis"
  [ -s csv2/default_per_chip.csv ] && ls figs/default_*.png >/dev/null 2>&1 || bad "CSV or figures missing"
  "$rfdse" analyze rodir/default.h5 >/dev/null 2>&1 && bad "analyze with nothing to write succeeded on a read-only file"
  [ "$(md5sum < rodir/default.h5)" = "$sum" ] || bad "the read-only file changed"
fi
[ -z "$ro" ] && chmod -R u+w rodir
exit $fail
