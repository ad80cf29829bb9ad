#!/usr/bin/env bash
# check_search.sh RFDSE SWEEP: an NSGA-II search (design = "nsga2") gives the same file
# for one process and mpirun -n 3 --oversubscribe; a SIGKILL in the middle and --resume
# give the same file again; every point is kept with its generation; a point of a later
# generation equals a plain run of `rfdse validate --point K FILE.h5`.
set -u
rfdse=$1 sweep=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
"$rfdse" run "$sweep" -o "$tmp/n1.h5" > "$tmp/n1.log" || { echo "FAIL: run"; cat "$tmp/n1.log"; exit 1; }
grep "search generation" "$tmp/n1.log"
[ "$(grep -c 'search generation' "$tmp/n1.log")" -eq 3 ] || { echo "FAIL: hypervolume per generation"; fail=1; }
mpiexec -n 3 --oversubscribe "$rfdse" run "$sweep" -o "$tmp/n3.h5" --quiet --flush-interval 0 \
  || { echo "FAIL: -n 3"; exit 1; }
for g in /results /chips /progress /axes; do
  h5diff -r "$tmp/n1.h5" "$tmp/n3.h5" "$g" "$g" >"$tmp/diff" 2>&1 \
    || { echo "FAIL: $g differs between -n 1 and -n 3"; head "$tmp/diff"; fail=1; }
done
# killed after the first generation (24 units), resumed
out="$tmp/kill.h5"
setsid mpiexec -n 2 "$rfdse" run "$sweep" -o "$out" --quiet --flush-interval 0 &
pid=$!
for _ in $(seq 300); do
  n=$(/usr/bin/python3 -c "import sys,h5py; print(int(h5py.File(sys.argv[1],'r')['/progress/done'][...].sum()))" "$out" 2>/dev/null || echo 0)
  [ "$n" -ge 30 ] && break
  sleep 0.1
done
kill -9 -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null
for _ in $(seq 100); do pgrep -f "run $sweep -o $out" >/dev/null || break; sleep 0.1; done
echo "killed with $n of 72 units done"
"$rfdse" run "$sweep" -o "$out" --quiet --resume || { echo "FAIL: resume"; fail=1; }
for g in /results /chips /progress /axes; do
  h5diff -r "$tmp/n1.h5" "$out" "$g" "$g" >"$tmp/diff" 2>&1 \
    || { echo "FAIL: $g differs after kill + resume"; head "$tmp/diff"; fail=1; }
done
/usr/bin/python3 - "$tmp/n1.h5" <<'PY' || fail=1
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
g = f["/axes/generation"][...]
assert list(g) == [0] * 4 + [1] * 4 + [2] * 4, g
assert f["/progress/done"][...].all()
v = f["/axes/knob/timing.vdd"][...]
assert not np.isnan(v).any() and ((v >= 0.9) & (v <= 1.1)).all(), v
assert len(set(v[4:])) > 1, v   # later generations are drawn, not copies
print("ok: every point kept with its generation")
PY
k=9
"$rfdse" validate --point $k "$tmp/n1.h5" > "$tmp/p.cfg" && "$rfdse" run "$tmp/p.cfg" -o "$tmp/p.h5" --quiet \
  || { echo "FAIL: plain run of point $k"; fail=1; }
/usr/bin/python3 - "$tmp/n1.h5" $k "$tmp/p.h5" <<'PY' || fail=1
import sys, h5py
g, k, p = h5py.File(sys.argv[1], "r"), int(sys.argv[2]), h5py.File(sys.argv[3], "r")
for n in g["/results"]:
    d = g["/results"][n]
    if isinstance(d, h5py.Dataset) and d.ndim > 1 and "point" in d.dims[0].keys():
        assert d[k].tobytes() == p["/results"][n][...].tobytes(), n
print("ok: point %d equals a plain run of its knob values" % k)
PY
# analyze: the hypervolume figure, the same numbers as the run printed
"$rfdse" analyze "$tmp/n1.h5" --figures "$tmp/fig" > "$tmp/an.log" 2>&1 || { echo "FAIL: analyze"; fail=1; }
[ -s "$tmp/fig/n1_hypervolume.png" ] || { echo "FAIL: no hypervolume figure"; fail=1; }
h0=$(sed -n 's/.*generation 0 of 3: hypervolume \([^ ]*\) .*/\1/p' "$tmp/n1.log")
h2=$(sed -n 's/.*generation 2 of 3: hypervolume \([^ ]*\) .*/\1/p' "$tmp/n1.log")
grep -q "search: hypervolume $h0 after generation 0, $h2 after 2" "$tmp/an.log" \
  || { echo "FAIL: analyze's hypervolume differs from the run's ($h0, $h2)"; cat "$tmp/an.log" | tail -3; fail=1; }
[ $fail -eq 0 ] && echo "ok: search"
exit $fail
