#!/usr/bin/env bash
# check_checksum.sh RFDSE SWEEP: silent corruption and stale statistics (issue 33
# items 17 and 4).
#  - A bit flipped in the raw data of a finished file (a /results row, a chip's /chips
#    row, a traced unit's trace block): `rfdse analyze` refuses with one line naming
#    the damaged units, `rfdse run --resume` recomputes them, and the file is then
#    identical to an untouched run (h5diff).
#  - /analysis written on a partial file is gone once a resume has changed the results,
#    so nothing shows the stale counts; analyze then counts every chip.
set -u
rfdse=$1 sweep=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
py=/usr/bin/python3
"$rfdse" run "$sweep" -o "$tmp/ref.h5" --quiet --chips 4 || { echo "FAIL: reference run"; exit 1; }
same_as_ref() { # same_as_ref FILE WHAT: /results, /chips and /progress equal the reference
  for g in /results /chips /progress; do
    h5diff -r "$tmp/ref.h5" "$1" "$g" "$g" >"$tmp/diff" 2>&1 ||
      { echo "FAIL: $2: $g differs from an untouched run"; head -5 "$tmp/diff"; fail=1; }
  done
}
# flip FILE DATASET INDEX...: flips bit 4 of the element's third byte, in place, at the
# dataset's raw data offset (contiguous: h5py's get_offset).
flip() {
  "$py" - "$@" <<'EOF'
import sys, h5py, numpy as np
path, name, idx = sys.argv[1], sys.argv[2], tuple(int(i) for i in sys.argv[3:])
with h5py.File(path, "r") as f:
    d = f[name]
    off = d.id.get_offset() + int(np.ravel_multi_index(idx, d.shape)) * d.dtype.itemsize
with open(path, "r+b") as g:
    g.seek(off + 2); b = g.read(1); g.seek(off + 2); g.write(bytes([b[0] ^ 0x10]))
EOF
}
tech() { "$py" -c "import sys,h5py; print(h5py.File(sys.argv[1],'r')['/axes/technique'][int(sys.argv[2])].decode())" "$tmp/ref.h5" "$1"; }

# One copy, three kinds of damage: a /results row (chip 1), a chip's own /chips row
# (chip 2: part of every unit of the chip, so all six), a traced unit's trace block
# (chip 0 is traced: output.trace_chips defaults to [0]).
f=$tmp/flipped.h5
cp "$tmp/ref.h5" "$f"
flip "$f" /results/ipc 1 2 0
flip "$f" /chips/sm_frequency 2 0
flip "$f" /chips/trace/sub_bank_delay 0 4 1 0
text="chip 0 $(tech 4), chip 1 $(tech 2), chip 2 $(tech 0), chip 2 $(tech 1)"
err=$("$rfdse" analyze "$f" 2>&1 >/dev/null); rc=$?
if [ "$rc" -eq 0 ] || [ "$(printf '%s\n' "$err" | grep -c .)" -ne 1 ] ||
   [[ "$err" != *"8 damaged units (checksum mismatch): $text"* ]]; then
  echo "FAIL: analyze after flipped bits: status $rc, stderr: $err"; fail=1
else
  echo "ok: $err"
fi
err=$("$rfdse" run "$sweep" -o "$f" --quiet --resume --chips 4 2>&1); rc=$?
[ "$rc" -eq 0 ] && [[ "$err" == *"8 damaged units"*"computed again: $text"* ]] ||
  { echo "FAIL: resume of the damaged file: status $rc, stderr: $err"; fail=1; }
same_as_ref "$f" "damaged + resume"

# Stale /analysis: a file with chips 2 and 3 not yet done (as a run stopped before it
# marked them), analyzed, then resumed.
part=$tmp/part.h5
cp "$tmp/ref.h5" "$part"
"$py" -c "import sys,h5py; h5py.File(sys.argv[1],'r+')['/progress/done'][2:4, :] = 0" "$part"
n_of() { "$py" -c "
import sys, h5py
f = h5py.File(sys.argv[1], 'r')
print(int(f['/analysis/frequency/n'][...].max()) if 'analysis' in f else 'none')" "$1"; }
"$rfdse" analyze "$part" >/dev/null || { echo "FAIL: analyze of the partial file"; fail=1; }
[ "$(n_of "$part")" = 2 ] || { echo "FAIL: /analysis of the partial file counts $(n_of "$part") chips, not 2"; fail=1; }
"$rfdse" run "$sweep" -o "$part" --quiet --resume --chips 4 || { echo "FAIL: resume of the partial file"; fail=1; }
have=$(n_of "$part")
[ "$have" = none ] && echo "ok: the resume removed /analysis (it counted 2 of 4 chips)" ||
  { echo "FAIL: /analysis still in the file after the resume (counts $have chips)"; fail=1; }
same_as_ref "$part" "partial + resume"
"$rfdse" analyze "$part" >/dev/null && [ "$(n_of "$part")" = 4 ] ||
  { echo "FAIL: analyze after the resume counts $(n_of "$part") chips, not 4"; fail=1; }
# A resume with nothing to do leaves /analysis alone.
"$rfdse" run "$sweep" -o "$part" --quiet --resume --chips 4 && [ "$(n_of "$part")" = 4 ] ||
  { echo "FAIL: a resume with nothing to do changed /analysis"; fail=1; }
[ $fail -eq 0 ] && echo "all checksum and stale-analysis checks passed"
exit $fail
