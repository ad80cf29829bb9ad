#!/usr/bin/env bash
# check_trace_run.sh RFDSE SRCDIR: trace workloads through the command line (issue 30
# item 1, docs/traces.md "Running a trace").
# - a sweep's `trace = "FILE"` loads, `rfdse validate` writes it back with its shape and
#   trace_hash and that loads again to the same sweep; the HDF5 form of a trace has the
#   text's trace_hash (the run cache keys the content, not the path);
# - a stated trace_hash that no longer matches the file (the trace changed) and an
#   unknown opcode are refused with exit 2 and one line;
# - the two public traces in ../shared/traces (when that folder exists; never copied):
#   `rfdse sm` runs each under every technique preset with their warp instruction
#   counts (4416, 344), and a tiny sweep of them runs under every preset (with aging)
#   and twice gives bit-identical results.
set -u
rfdse=$1 src=$2 fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; fail=1; }
cf=$src/tests/traces/closed-form.traceg

cat > "$tmp/one.cfg" <<CFG
workloads = ( { name = "cf"; trace = "$cf"; } );
CFG
"$rfdse" validate "$tmp/one.cfg" > "$tmp/back.cfg" || bad "validate a trace workload"
grep -q "trace = \"$cf\"" "$tmp/back.cfg" || bad "validate does not write the trace back"
grep -q "block_threads = 64;" "$tmp/back.cfg" || bad "the shape does not come from the header"
hash=$(sed -n 's/.*trace_hash = \([0-9]*\)L.*/\1/p' "$tmp/back.cfg")
[ -n "$hash" ] && [ "$hash" != 0 ] || bad "no trace_hash written"
"$rfdse" validate "$tmp/back.cfg" > "$tmp/back2.cfg" || bad "the written sweep does not load"
cmp -s "$tmp/back.cfg" "$tmp/back2.cfg" || bad "validate's round trip changed the sweep"

# the HDF5 form decodes to the same stream
"$rfdse" trace import "$cf" -o "$tmp/cf.h5" >/dev/null || bad "import"
sed "s|$cf|$tmp/cf.h5|" "$tmp/one.cfg" > "$tmp/h5.cfg"
h5hash=$("$rfdse" validate "$tmp/h5.cfg" | sed -n 's/.*trace_hash = \([0-9]*\)L.*/\1/p')
[ "$h5hash" = "$hash" ] || bad "the HDF5 form hashes to $h5hash, the text to $hash"

# a changed trace: the written sweep's trace_hash no longer matches
cp "$cf" "$tmp/cf.traceg"
sed "s|$cf|$tmp/cf.traceg|" "$tmp/back.cfg" > "$tmp/pinned.cfg"
"$rfdse" validate "$tmp/pinned.cfg" >/dev/null || bad "a copy of the trace does not match its hash"
sed -i 's/0008 ffffffff 1 R1 IADD 2 R1 R255 0/0008 ffffffff 1 R3 IADD 2 R1 R255 0/' "$tmp/cf.traceg"
out=$("$rfdse" validate "$tmp/pinned.cfg" 2>&1 >/dev/null); rc=$?
[ $rc = 2 ] || bad "a changed trace: exit $rc, expected 2"
case "$out" in *"key 'workloads[0].trace_hash'"*"has changed"*) ;; *) bad "a changed trace: '$out'" ;; esac
[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || bad "a changed trace: more than one line"

# an unknown opcode: one line naming the file, its line and the opcode
sed 's/0008 ffffffff 1 R1 IADD /0008 ffffffff 1 R1 FROB /' "$cf" > "$tmp/bad.traceg"
sed "s|$cf|$tmp/bad.traceg|" "$tmp/one.cfg" > "$tmp/bad.cfg"
out=$("$rfdse" validate "$tmp/bad.cfg" 2>&1 >/dev/null); rc=$?
[ $rc = 2 ] || bad "an unknown opcode: exit $rc, expected 2"
case "$out" in "$tmp/bad.traceg:"[0-9]*"FROB"*) ;; *) bad "an unknown opcode: '$out'" ;; esac

# not a regular file (a FIFO or device would block the loader)
printf 'workloads = ( { name = "d"; trace = "/dev/null"; } );\n' > "$tmp/dev.cfg"
out=$("$rfdse" validate "$tmp/dev.cfg" 2>&1 >/dev/null); rc=$?
case "$rc:$out" in "2:$tmp/dev.cfg:1: key 'workloads[0].trace': /dev/null is not a regular file"*) ;;
  *) bad "trace = /dev/null: exit $rc, '$out'" ;; esac

shared=$src/../shared/traces
if [ ! -d "$shared" ]; then
  echo "skipped: $shared absent (the public traces)"
  exit $fail
fi
mm=$(cd "$shared" && pwd)/matrixmul-32x32.traceg va=$(cd "$shared" && pwd)/vectoradd-100.traceg
cat > "$tmp/pub.cfg" <<CFG
chips = { count = 2; seed = 3L; };
workloads = ( { name = "mm"; trace = "$mm"; }, { name = "va"; trace = "$va"; },
              { name = "cf"; trace = "$cf"; } );
CFG
presets=$("$rfdse" list techniques | awk '{print $1}')
n=0
for t in $presets; do
  for w in mm:4416 va:344; do
    got=$("$rfdse" sm "$tmp/pub.cfg" --benchmark "${w%:*}" --technique "$t" --slow-subbanks 8 --json |
          sed -n 's/.*"warp_insts": *\([0-9]*\).*/\1/p')
    [ "$got" = "${w#*:}" ] || bad "rfdse sm ${w%:*} under $t: warp_insts '$got', expected ${w#*:}"
  done
  n=$((n + 1))
done
[ $n -ge 10 ] || bad "only $n presets listed"
list=$(printf '"%s", ' $presets); list=${list%, }
{ echo "techniques = ( $list );"; cat "$tmp/pub.cfg"; } > "$tmp/all.cfg"
sed -i 's/^chips = .*$/chips = { count = 2; seed = 3L; };\noutput = { file = "OUT"; };/' "$tmp/all.cfg"
sed "s|OUT|$tmp/a.h5|" "$tmp/all.cfg" > "$tmp/a.cfg"
sed "s|OUT|$tmp/b.h5|" "$tmp/all.cfg" > "$tmp/b.cfg"
"$rfdse" run "$tmp/a.cfg" --quiet >/dev/null 2>"$tmp/a.err" || { bad "rfdse run of the public traces"; cat "$tmp/a.err"; }
"$rfdse" run "$tmp/b.cfg" --quiet >/dev/null 2>"$tmp/b.err" || bad "rfdse run again"
for d in ipc frequency; do
  h5diff -q "$tmp/a.h5" "$tmp/b.h5" "/results/$d" "/results/$d" || bad "two runs differ in /results/$d"
done
exit $fail
