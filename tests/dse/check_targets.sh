#!/usr/bin/env bash
# check_targets.sh RFDSE SWEEP: where rfdse may write.
#  1. Only regular files are replaced: a device (as root), FIFO, directory or symbolic
#     link at an output path is refused with one line by run, chipmap, analyze and
#     submit, and is still there afterwards; a gnuplot failure prints one line and no
#     PNG bytes on stdout.
#  2. Long output paths: about 300 and 3990 bytes work under mpiexec -n 2 (Open MPI's
#     shared-file-pointer component used to overflow a buffer at about 240); over 4000
#     is refused with one line.
#  3. A results file being written is locked: a second run (--force or --resume) and
#     analyze are refused with the holder's pid; the lock file is gone at the end.
set -u
rfdse=$1 sweep=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
expect() { # expect STATUS PATTERN -- command...: status, one line of stderr, pattern
  local want=$1 pat=$2; shift 3
  local err rc
  err=$("$@" 2>&1 >"$tmp/stdout"); rc=$?
  err=$(grep -v -e '^---' -e '^$' -e 'Primary job' -e 'non-zero exit' -e 'mpiexec' \
        -e 'Process name' -e 'Exit code' -e 'aborted' -e 'terminated' -e 'first process' <<<"$err")
  if [ "$rc" -ne "$want" ] || [ "$(grep -c . <<<"$err")" -ne 1 ] || [[ "$err" != *"$pat"* ]]; then
    echo "FAIL: $* -> status $rc (want $want), stderr: $err"; fail=1
  else echo "ok: $pat"; fi
}
still() { [ "$1" "$2" ] || { echo "FAIL: $2 is no longer what it was"; fail=1; }; }

# ---- 1. special files --------------------------------------------------------------
"$rfdse" run "$sweep" -o good.h5 --chips 2 --quiet || { echo "FAIL: small run"; fail=1; }
mkfifo fifo.h5; mkdir dir.h5; ln -s good.h5 link.h5
for t in fifo.h5 dir.h5 link.h5; do
  expect 2 "rfdse replaces only regular files" -- "$rfdse" run "$sweep" -o "$t" --force --quiet
  expect 2 "rfdse replaces only regular files" -- "$rfdse" chipmap "$sweep" --chip 1 -o "$t"
  expect 2 "rfdse replaces only regular files" -- "$rfdse" submit "$sweep" -o "$tmp/$t" --dry-run
done
still -p fifo.h5; still -d dir.h5; still -L link.h5
# A device node of our own (/dev/full's numbers), so a regression replaces only it.
if [ "$(id -u)" -eq 0 ] && mknod full c 1 7; then
  expect 2 "full is a character device" -- "$rfdse" run "$sweep" -o full --force --quiet
  expect 2 "full is a character device" -- "$rfdse" chipmap "$sweep" --chip 1 -o full
  expect 2 "full is a character device" -- "$rfdse" chipmap "$sweep" --chip 1 --png full
  still -c full
fi
expect 1 "cannot draw" -- "$rfdse" chipmap "$sweep" --chip 1 -o map.h5 --png /proc/x.png
if grep -q PNG "$tmp/stdout"; then echo "FAIL: PNG bytes on stdout"; fail=1; fi
mkdir csv; ln -s /dev/null "csv/$("$rfdse" analyze good.h5 --csv probe >/dev/null 2>&1; ls probe | head -1)"
expect 1 "rfdse replaces only regular files" -- "$rfdse" analyze good.h5 --csv csv
still -L "csv/$(ls probe | head -1)"

# ---- 2. long paths -------------------------------------------------------------------
seg=$(printf 'd%.0s' $(seq 1 200))
long() { # a directory path of about $1 bytes below $tmp
  local p="$tmp"; while [ ${#p} -lt $(($1 - 210)) ]; do p="$p/$seg"; done; mkdir -p "$p"; echo "$p"; }
for n in 300 3990; do
  d=$(long "$n"); out="$d/$(printf 'r%.0s' $(seq 1 $((n - ${#d} - 4)))).h5"
  if timeout 120 mpiexec -n 2 "$rfdse" run "$sweep" -o "$out" --chips 2 --quiet &&
     h5diff -q good.h5 "$out" /results /results; then echo "ok: a ${#out}-byte path"
  else echo "FAIL: a ${#out}-byte output path"; fail=1; fi
done
d=$(long 4000); out="$d/$(printf 'r%.0s' $(seq 1 $((4001 - ${#d} - 4)))).h5"
expect 2 "too long" -- "$rfdse" run "$sweep" -o "$out" --chips 2 --quiet
expect 2 "too long" -- "$rfdse" chipmap "$sweep" --chip 1 -o "$out"

# ---- 3. one writer at a time ---------------------------------------------------------
"$rfdse" run "$sweep" -o busy.h5 --chips 80 --quiet --flush-interval 0 & pid=$!
for _ in $(seq 1 100); do [ -e busy.h5.lock ] && [ -e busy.h5 ] && break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
  expect 2 "being written by another rfdse (pid $pid on" -- "$rfdse" run "$sweep" -o busy.h5 --chips 80 --force --quiet
  expect 2 "being written by another rfdse (pid $pid on" -- "$rfdse" run "$sweep" -o busy.h5 --chips 80 --resume --quiet
  expect 1 "being written by another rfdse (pid $pid on" -- "$rfdse" analyze busy.h5
else echo "FAIL: the first run ended before the second could try"; fail=1; fi
wait "$pid" || { echo "FAIL: the first run failed"; fail=1; }
[ ! -e busy.h5.lock ] || { echo "FAIL: lock file left"; fail=1; }
"$rfdse" analyze busy.h5 >/dev/null || { echo "FAIL: analyze after the run"; fail=1; }
exit $fail
