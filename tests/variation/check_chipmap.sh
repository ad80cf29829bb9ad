#!/usr/bin/env bash
# check_chipmap.sh RFDSE: `rfdse chipmap` writes the documented HDF5 layout (and a PNG
# when gnuplot is there), refuses bad input with exit status 2 and one line on stderr,
# and never leaves a partial file behind.
set -u
rfdse=$1 fail=0
dir=$(mktemp -d) && trap 'rm -rf "$dir"' EXIT
check() { if ! "$@"; then echo "FAIL: $*"; fail=1; fi; }

png=()
if command -v gnuplot >/dev/null; then png=(--png "$dir/m.png"); else echo "skip: no gnuplot, no PNG"; fi
check "$rfdse" chipmap --chip 1 --sm 2 -o "$dir/m.h5" "${png[@]}" >/dev/null
for obj in /map/vth /map/leff /map/systematic /delay/register /delay/entry /delay/sub_bank /delay/bank; do
  h5dump -H -d "$obj" "$dir/m.h5" >/dev/null 2>&1 || { echo "FAIL: $obj missing"; fail=1; }
done
h5dump -H -d /map/vth "$dir/m.h5" | grep -q 'DATASPACE  SIMPLE { ( 1024, 1024 )' \
  || { echo "FAIL: /map/vth is not 1024 x 1024"; fail=1; }
h5dump -a /sm "$dir/m.h5" | grep -q '(0): 2' || { echo "FAIL: attribute sm"; fail=1; }
h5dump -a /map/vth/units "$dir/m.h5" | grep -q '"V"' || { echo "FAIL: vth units"; fail=1; }
if [ ${#png[@]} -gt 0 ]; then
  head -c 8 "$dir/m.png" | od -An -c | grep -q 'P   N   G' || { echo "FAIL: not a PNG"; fail=1; }
fi
# the same chip twice is the same file content (deterministic maps)
check "$rfdse" chipmap --chip 1 --sm 2 -o "$dir/m2.h5" >/dev/null
cmp -s <(h5dump -d /map/vth "$dir/m.h5" | tail -n +3) <(h5dump -d /map/vth "$dir/m2.h5" | tail -n +3) \
  || { echo "FAIL: chipmap not reproducible"; fail=1; }

expect2() { # expect exit status 2 and exactly one line on stderr
  "$rfdse" chipmap "$@" >/dev/null 2>"$dir/err"; st=$?
  if [ $st -ne 2 ] || [ "$(wc -l <"$dir/err")" -ne 1 ]; then
    echo "FAIL: chipmap $* -> status $st, stderr:"; cat "$dir/err"; fail=1
  fi
}
expect2                       # --chip missing
expect2 --chip -1
expect2 --chip 100000         # outside the default population
expect2 --chip 0 --sm 15
expect2 --chip 0 --frobnicate
printf 'variation = { phi = 0.0; };\n' > "$dir/bad.cfg"
expect2 "$dir/bad.cfg" --chip 0
# an unwritable output fails (status 1) and leaves nothing behind
"$rfdse" chipmap --chip 0 -o "$dir/nodir/m.h5" >/dev/null 2>&1 && { echo "FAIL: wrote into a missing dir"; fail=1; }
ls "$dir"/nodir* "$dir"/*.tmp.* >/dev/null 2>&1 && { echo "FAIL: partial file left"; fail=1; }
exit $fail
