#!/usr/bin/env bash
# check_status.sh RFDSE SWEEP: `rfdse status` (issue 33 item 10).
# - a finished file: every unit done, per technique, "complete";
# - a file with units left and a lock file no process holds (a killed run): the units
#   left and the --resume line;
# - a file whose lock another process holds, with its progress note, and which an HDF5
#   writer holds open (HDF5's own file lock taken): status neither waits nor fails, and
#   says "writing now" with the note's rate and time left;
# - a run writing the file while status polls it: every poll reads (exit 0);
# - bad input: one line, exit 2.
set -u
rfdse=$1 sweep=$2
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" # MPI's allocations
py=/usr/bin/python3
tmp=$(mktemp -d); trap 'kill $holder 2>/dev/null; rm -rf "$tmp"' EXIT
holder=
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cd "$tmp" || exit 1

"$rfdse" run "$sweep" -o a.h5 --chips 3 --quiet >/dev/null || { echo "FAIL: run"; exit 1; }
out=$("$rfdse" status a.h5) || bad "status of a finished file: exit $?"
grep -q '^  units: *18 of 18 done (100.0 %): 3 chips x 6 techniques$' <<<"$out" || bad "units line: $out"
[ "$(grep -cE '^  [a-z_]+ +3 of 3$' <<<"$out")" -eq 6 ] || bad "per-technique lines: $out"
grep -q '^  run: *none; complete$' <<<"$out" || bad "not complete: $out"
echo "ok: finished file"

# A damaged unit (one value changed after the run): named by its checksum.
cp a.h5 d.h5
$py - d.h5 <<'PY' || bad "h5py"
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    d = f["/results/ipc"]; x = d[...]; x[1, 2, 0] += 1e-9; d[...] = x
PY
grep -q '^  checksums: *every unit done matches' <<<"$out" || bad "checksums of a good file: $out"
out=$("$rfdse" status d.h5) || bad "status of a damaged file: exit $?"
grep -q '^  checksums: *1 damaged unit.*chip 1 vl_rf.*--resume' <<<"$out" || bad "damaged unit not named: $out"
echo "ok: damaged unit named"

# Units left, a lock file nobody holds: what to do next.
cp a.h5 b.h5
$py - b.h5 <<'PY' || bad "h5py"
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    d = f["/progress/done"]; x = d[...]; x[2, 1:4] = 0; d[...] = x
PY
echo "pid 99999 on nowhere since 2026-01-01T00:00:00Z: rfdse run" > b.h5.lock
out=$("$rfdse" status b.h5) || bad "status of a partial file: exit $?"
grep -q '^  units: *15 of 18 done' <<<"$out" || bad "partial units: $out"
grep -qE '^  vl_rf +2 of 3$' <<<"$out" || bad "partial per technique: $out"
grep -q 'none holds the lock (a lock file of a run that was killed is left' <<<"$out" &&
  grep -q '3 units left: `rfdse run SWEEP.cfg --resume -o b.h5` continues it' <<<"$out" ||
  bad "partial run line: $out"
echo "ok: partial file, stale lock"

# A holder of both locks: rfdse's (fcntl on b.h5.lock, with a progress note: 12 units in
# the 10 s since its start, noted 2 s ago) and HDF5's own (the file open for writing).
rm -f b.h5.lock ready
$py - b.h5 <<'PY' &
import fcntl, os, sys, time, h5py
path = sys.argv[1]
lock = open(path + ".lock", "w")
fcntl.lockf(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
now = time.time()
lock.write("pid %d on testhost since 2026-01-01T00:00:00Z: rfdse run\n" % os.getpid())
lock.write("progress: started %.3f with 3 done; at %.3f 15 done of 18\n" % (now - 12, now - 2))
lock.flush()
f = h5py.File(path, "r+")  # HDF5 takes its own lock on the file while it is open
open("ready", "w").close()
time.sleep(60)
PY
holder=$!
for _ in $(seq 100); do [ -e ready ] && break; sleep 0.1; done
[ -e ready ] || bad "the lock holder did not start"
start=$(date +%s.%N)
out=$(timeout 10 "$rfdse" status b.h5); rc=$?
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
[ $rc -eq 0 ] || bad "status beside a writer: exit $rc: $out"
awk -v t="$took" 'BEGIN { exit !(t < 5) }' || bad "status took $took s beside a writer"
grep -q '^  run: *writing now: pid [0-9]* on testhost since' <<<"$out" || bad "no 'writing now': $out"
grep -q '^  rate: *1.20 units/s (12 units in the 10 s' <<<"$out" || bad "rate: $out"
grep -q '^  checksums: *every unit done matches' <<<"$out" || bad "checksums beside a writer: $out"
# 3 units at 1.2 units/s, 2 s of them gone: 0.5 s left (rounded to whole seconds).
grep -qE '^  time left: *about [01] s, an estimate' <<<"$out" || bad "time left: $out"
# --json: the same, one object per file and line.
"$rfdse" status --json a.h5 b.h5 missing.h5 >json; rc=$?
[ $rc -eq 2 ] || bad "status --json with a missing file: exit $rc"
$py - json <<'PY' || bad "status --json: $(cat json)"
import json, sys
a, b, m = (json.loads(line) for line in open(sys.argv[1]))
assert a["units_done"] == a["units_total"] == 18 and not a["running"], a
assert a["done_per_technique"]["vl_rf"] == 3 and a["seconds_left"] is None, a
assert a["damaged_units"] == 0 and b["damaged_units"] == 0, (a, b)
assert b["units_done"] == 15 and b["running"] and "testhost" in b["holder"], b
assert abs(b["units_per_second"] - 1.2) < 1e-9 and 0 <= b["seconds_left"] <= 1.5, b
assert m["error"] == "no such file", m
PY
kill $holder; wait $holder 2>/dev/null; holder=
echo "ok: beside a holder of both locks ($took s), and --json"

# A real run writing the file while status polls it: every poll reads it.
"$rfdse" run "$sweep" -o c.h5 --chips 8 --flush-interval 0 --quiet >/dev/null 2>&1 &
run=$!
polls=0 writing=0
while kill -0 $run 2>/dev/null; do
  out=$("$rfdse" status c.h5 2>&1); rc=$?
  if [ -e c.h5 ] || [ $rc -ne 2 ]; then
    polls=$((polls + 1))
    [ $rc -eq 0 ] || bad "status during a run: exit $rc: $out"
    grep -q 'writing now' <<<"$out" && writing=$((writing + 1))
  fi
  sleep 0.2
done
wait $run || bad "the polled run failed"
[ $writing -gt 0 ] || bad "no poll saw the run writing ($polls polls)"
"$rfdse" status c.h5 | grep -q 'none; complete' || bad "the polled run's file is not complete"
echo "ok: $polls polls during a run, $writing saw it writing"

# Bad input: one line, exit 2.
one_line() {
  local err rc
  err=$("$rfdse" status "$@" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] && [ "$(grep -c . <<<"$err")" -eq 1 ] || bad "status $*: exit $rc, message: $err"
}
one_line missing.h5
echo "not hdf5" > junk.h5; one_line junk.h5
$py -c 'import h5py; h5py.File("other.h5", "w").create_dataset("x", data=[1])'; one_line other.h5
one_line --frob a.h5
one_line
exit $fail
