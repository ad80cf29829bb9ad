#!/usr/bin/env bash
# check_axes_sobol.sh RFDSE SWEEP: a Sobol design gives bit-identical files for one
# process and mpirun -n 3 --oversubscribe, and its knob coordinates keep to the ranges
# (integers whole, enumerations from their list).
set -u
rfdse=$1 sweep=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
"$rfdse" run "$sweep" -o "$tmp/n1.h5" --quiet || { echo "FAIL: run without mpirun"; exit 1; }
mpiexec -n 3 --oversubscribe "$rfdse" run "$sweep" -o "$tmp/n3.h5" --quiet --flush-interval 0 \
  || { echo "FAIL: -n 3"; exit 1; }
for g in /results /chips /progress /axes; do
  h5diff -r "$tmp/n1.h5" "$tmp/n3.h5" "$g" "$g" >"$tmp/diff" 2>&1 \
    || { echo "FAIL: $g differs between -n 1 and -n 3"; head "$tmp/diff"; fail=1; }
done
"$rfdse" run "$sweep" -o "$tmp/s2.h5" --quiet --seed 2 || { echo "FAIL: seed 2"; exit 1; }
h5diff -q "$tmp/n1.h5" "$tmp/s2.h5" /results/frequency /results/frequency >/dev/null 2>&1 \
  && { echo "FAIL: h5diff sees no difference between seeds"; fail=1; }
/usr/bin/python3 - "$tmp/n1.h5" <<'PY' || fail=1
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
k = f["/axes/knob"]
assert f["/axes/point"].shape == (6,)
v = k["variation.vth_sigma"][...]
assert ((v >= 0.05) & (v <= 0.2)).all() and len(set(v)) == 6, v
o = k["sm.oc_sp"][...]
assert (o == np.round(o)).all() and ((o >= 1) & (o <= 8)).all(), o
p = {x.decode() for x in k["sm.base_policy"][...]}
assert p <= {"lrr", "gto"} and len(p) == 2, p
assert f["/progress/done"][...].all()
print("ok: Sobol coordinates within their ranges")
PY
[ $fail -eq 0 ] && echo "ok: Sobol design identical for -n 1 and -n 3"
exit $fail
