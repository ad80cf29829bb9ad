#!/usr/bin/env bash
# check_axes_checksum.sh RFDSE SWEEP: per-unit checksums in a file with design points
# (SWEEP has axes: 2 points x 2 chips x 2 techniques).  /progress/checksum is
# [point][chip][technique] like /progress/done; bits flipped in units of points 0 and 1
# (a /results row, a chip's /chips row, a traced unit's trace block): `rfdse analyze`
# and `rfdse status` name the damaged (point, chip, technique) units, `rfdse run
# --resume` recomputes just those, and the file then equals an untouched run (h5diff).
set -u
rfdse=$1 sweep=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
py=/usr/bin/python3
"$rfdse" run "$sweep" -o "$tmp/ref.h5" --quiet || { echo "FAIL: reference run"; exit 1; }
shape=$("$py" -c "
import sys, h5py
f = h5py.File(sys.argv[1], 'r')
c, d = f['/progress/checksum'], f['/progress/done']
print(c.shape == d.shape and len(c.shape) == 3 and bool((c[...] != 0).all()) and bool(d[...].all()))" "$tmp/ref.h5")
[ "$shape" = True ] || { echo "FAIL: /progress/checksum is not [point][chip][technique], all set"; fail=1; }
# flip FILE DATASET INDEX...: flips bit 4 of the element's third byte, in place.
flip() {
  "$py" - "$@" <<'PY'
import sys, h5py, numpy as np
path, name, idx = sys.argv[1], sys.argv[2], tuple(int(i) for i in sys.argv[3:])
with h5py.File(path, "r") as f:
    d = f[name]
    off = d.id.get_offset() + int(np.ravel_multi_index(idx, d.shape)) * d.dtype.itemsize
with open(path, "r+b") as g:
    g.seek(off + 2); b = g.read(1); g.seek(off + 2); g.write(bytes([b[0] ^ 0x10]))
PY
}
tech() { "$py" -c "import sys,h5py; print(h5py.File(sys.argv[1],'r')['/axes/technique'][int(sys.argv[2])].decode())" "$tmp/ref.h5" "$1"; }
f=$tmp/flipped.h5
cp "$tmp/ref.h5" "$f"
flip "$f" /results/ipc 1 1 1 0                 # point 1 chip 1 technique 1
flip "$f" /chips/sm_frequency 0 1 0            # point 0 chip 1: both techniques
flip "$f" /chips/trace/sub_bank_delay 1 0 0 1 0 # point 1, trace 0 (chip 0), technique 0
text="point 0 chip 1 $(tech 0), point 0 chip 1 $(tech 1), point 1 chip 0 $(tech 0), point 1 chip 1 $(tech 1)"
err=$("$rfdse" analyze "$f" 2>&1 >/dev/null); rc=$?
if [ "$rc" -eq 0 ] || [ "$(printf '%s\n' "$err" | grep -c .)" -ne 1 ] ||
   [[ "$err" != *"4 damaged units (checksum mismatch): $text"* ]]; then
  echo "FAIL: analyze after flipped bits: status $rc, stderr: $err"; fail=1
else
  echo "ok: $err"
fi
out=$("$rfdse" status "$f" 2>&1)
[[ "$out" == *"4 damaged units (checksum mismatch): $text"* && "$out" == *"8 of 8 done"*"2 points x 2 chips x 2 techniques"* ]] ||
  { echo "FAIL: status of the damaged file: $out"; fail=1; }
err=$("$rfdse" run "$sweep" -o "$f" --resume 2>&1); rc=$?
[ "$rc" -eq 0 ] && [[ "$err" == *"4 damaged units"*"computed again: $text"* ]] &&
  [[ "$err" == *"rfdse: 4 units in"* ]] ||
  { echo "FAIL: resume of the damaged file: status $rc, output: $err"; fail=1; }
for g in /results /chips /progress; do
  h5diff -r "$tmp/ref.h5" "$f" "$g" "$g" >"$tmp/diff" 2>&1 ||
    { echo "FAIL: $g differs from an untouched run after the resume"; head -5 "$tmp/diff"; fail=1; }
done
"$rfdse" analyze "$f" >/dev/null 2>"$tmp/err" || { echo "FAIL: analyze after the repair: $(cat "$tmp/err")"; fail=1; }
[ $fail -eq 0 ] && echo "ok: damaged units of points 0 and 1 named, recomputed, file as untouched"
exit $fail
