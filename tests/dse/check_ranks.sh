#!/usr/bin/env bash
# check_ranks.sh RFDSE SWEEP: the results and chip datasets are bit-identical for one
# process without mpirun, mpirun -n 2, mpirun -n 3 --oversubscribe, and with reuse of
# identical SM runs switched off; the ranks simulate no run twice.
set -u
rfdse=$1 sweep=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
"$rfdse" run "$sweep" -o "$tmp/n1.h5" --quiet >"$tmp/log1" || { echo "FAIL: run without mpirun"; exit 1; }
mpiexec -n 2 "$rfdse" run "$sweep" -o "$tmp/n2.h5" --quiet --flush-interval 0 >"$tmp/log2" \
  || { echo "FAIL: -n 2"; exit 1; }
mpiexec -n 3 --oversubscribe "$rfdse" run "$sweep" -o "$tmp/n3.h5" --quiet --flush-interval 1 \
  >"$tmp/log3" || { echo "FAIL: -n 3"; exit 1; }
# The ranks simulate the runs every chip needs once between them (dse/run/share_runs.c):
# in this sweep those are all among the first chip's time-zero runs, so 2 and 3 ranks
# simulate what one process does (each rank on its own: 134, 159 and 184 runs).
runs() { grep -o 'SM runs simulated [0-9]*' "$tmp/log$1" | grep -o '[0-9]*$'; }
echo "SM runs simulated with 1, 2, 3 ranks: $(runs 1) $(runs 2) $(runs 3)"
for n in 2 3; do
  [ -n "$(runs 1)" ] && [ "$(runs $n)" = "$(runs 1)" ] ||
    { echo "FAIL: -n $n simulates $(runs $n) SM runs, one process $(runs 1)"; fail=1; }
done
for n in 2 3; do
  for g in /results /chips /progress /axes; do
    if ! h5diff -r "$tmp/n1.h5" "$tmp/n$n.h5" "$g" "$g" >"$tmp/diff" 2>&1; then
      echo "FAIL: $g differs between -n 1 and -n $n"; head -20 "$tmp/diff"; fail=1
    fi
  done
done
# Reusing identical SM runs changes nothing: every run simulated gives the same bits.
"$rfdse" run "$sweep" -o "$tmp/noreuse.h5" --quiet --no-reuse || { echo "FAIL: --no-reuse run"; exit 1; }
for g in /results /chips; do
  h5diff -r "$tmp/n1.h5" "$tmp/noreuse.h5" "$g" "$g" >"$tmp/diff" 2>&1 \
    || { echo "FAIL: $g differs with --no-reuse"; head -20 "$tmp/diff"; fail=1; }
done
# The comparison must be able to fail: a different seed gives different results.
"$rfdse" run "$sweep" -o "$tmp/other.h5" --seed 8 --quiet
if h5diff -q "$tmp/n1.h5" "$tmp/other.h5" /results/frequency /results/frequency >/dev/null 2>&1; then
  echo "FAIL: h5diff finds no difference between seeds 7 and 8"; fail=1
fi
# Every unit done, no NaN at time zero.
/usr/bin/python3 - "$tmp/n2.h5" <<'PY' || fail=1
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
assert f["/progress/done"][...].all(), "units left undone"
fr = f["/results/frequency"][:, :, 0]
assert not np.isnan(fr).any(), "NaN frequency at time zero"
assert not np.isnan(f["/results/ipc"][...]).any(), "NaN IPC"
t = [x.decode() for x in f["/axes/technique"][...]]
assert np.all(fr[:, t.index("ideal")] == 1.0), "ideal frequency must be 1"
assert np.all(f["/results/ipc"][:, t.index("ideal"), :] == 1.0), "ideal IPC must be 1"
for name in ["/results/frequency", "/results/ipc", "/chips/sm_frequency", "/progress/done"]:
    a = f[name].attrs
    assert "description" in a and ("units" in a or "normalised_to" in a), name + " lacks attributes"
print("ok: python checks")
PY
[ $fail -eq 0 ] && echo "ok: -n 1, 2, 3 bit-identical"
exit $fail
