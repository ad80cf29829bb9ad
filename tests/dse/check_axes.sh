#!/usr/bin/env bash
# check_axes.sh RFDSE SWEEP: a sweep with axes (a 4 x 3 grid over two global knobs)
# under mpirun -n 2: every point equals, bit for bit, a plain run of the sweep
# `rfdse validate --point K FILE.h5` prints; a SIGKILL + --resume gives the same file
# as an uninterrupted run; xarray shows the knobs as coordinates.
set -u
rfdse=$1 sweep=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
mpiexec -n 2 "$rfdse" run "$sweep" -o "$tmp/g.h5" --quiet --flush-interval 0 \
  || { echo "FAIL: mpiexec -n 2 run"; exit 1; }
# Point K of the grid file against a plain run of point K's sweep: every dataset of
# /results, /chips and /progress, compared as raw bytes (NaN included).
same_point() { # FILE K PLAIN -> prints the datasets that differ
  /usr/bin/python3 - "$1" "$2" "$3" <<'PY'
import sys, h5py
g, k, p = h5py.File(sys.argv[1], "r"), int(sys.argv[2]), h5py.File(sys.argv[3], "r")
names = []
for grp in ("/results", "/chips", "/chips/trace", "/progress"):
    for n, d in g[grp].items():
        if isinstance(d, h5py.Dataset) and d.ndim > 1 and "point" in d.dims[0].keys():
            names.append(grp + "/" + n)
assert len(names) >= 15, names
for n in names:
    if g[n][k].tobytes() != p[n][...].tobytes():
        print(n)
PY
}
for k in 0 5 11; do
  "$rfdse" validate --point $k "$tmp/g.h5" > "$tmp/p$k.cfg" || { echo "FAIL: validate --point $k"; fail=1; continue; }
  grep -q "^axes" "$tmp/p$k.cfg" && { echo "FAIL: point $k's sweep still has axes"; fail=1; }
  "$rfdse" run "$tmp/p$k.cfg" -o "$tmp/p$k.h5" --quiet || { echo "FAIL: plain run of point $k"; fail=1; continue; }
  diffs=$(same_point "$tmp/g.h5" $k "$tmp/p$k.h5")
  [ -z "$diffs" ] && echo "ok: point $k equals a plain run of its knob values" \
    || { echo "FAIL: point $k differs from its plain run in: $diffs"; fail=1; }
done
# The comparison can fail: point 5 is not point 0's plain run.
[ -n "$(same_point "$tmp/g.h5" 5 "$tmp/p0.h5")" ] || { echo "FAIL: point 5 equals point 0's run"; fail=1; }
# SIGKILL mid-run, then --resume: bit-identical to the uninterrupted file.
out="$tmp/kill.h5"
setsid mpiexec -n 2 "$rfdse" run "$sweep" -o "$out" --quiet --flush-interval 0 &
pid=$!
for _ in $(seq 100); do
  n=$(/usr/bin/python3 -c "import sys,h5py; print(int(h5py.File(sys.argv[1],'r')['/progress/done'][...].sum()))" "$out" 2>/dev/null || echo 0)
  [ "$n" -ge 8 ] && break
  sleep 0.1
done
kill -9 -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null
# the ranks may outlive mpiexec by a moment; their lock goes with them
for _ in $(seq 100); do pgrep -f "run $sweep -o $out" >/dev/null || break; sleep 0.1; done
echo "killed with $n of 48 units done"
"$rfdse" run "$sweep" -o "$out" --quiet --resume || { echo "FAIL: resume"; fail=1; }
for g in /results /chips /progress; do
  h5diff -r "$tmp/g.h5" "$out" "$g" "$g" >"$tmp/diff" 2>&1 \
    || { echo "FAIL: $g differs after kill + resume"; head "$tmp/diff"; fail=1; }
done
# xarray: the knobs are coordinates along point; the grid unstacks to 4 x 3.
/usr/bin/python3 - "$tmp/g.h5" <<'PY' || fail=1
import sys, xarray as xr
res = xr.open_dataset(sys.argv[1], engine="h5netcdf", group="results")
assert "variation.vth_sigma" in res.coords and "aging.temperature" in res.coords, res.coords
assert res["performance"].dims[0] == "point"
grid = res.set_index(point=["variation.vth_sigma", "aging.temperature"]).unstack("point")
assert grid["performance"].sizes["variation.vth_sigma"] == 4, grid
assert grid["performance"].sizes["aging.temperature"] == 3, grid
print("ok: xarray shows the knobs as coordinates; the grid unstacks to 4 x 3")
PY
[ $fail -eq 0 ] && echo "ok: axes"
exit $fail
