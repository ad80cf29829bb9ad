#!/usr/bin/env bash
# check_resume.sh RFDSE SWEEP: SIGKILL mpirun at several points, resume, and get
# /results bit-identical to an uninterrupted run; a resume of another sweep or seed
# is refused.
set -u
rfdse=$1 sweep=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
# 16 chips: long enough (several seconds) that the kills land mid-run.
done_share() { /usr/bin/python3 -c "import sys,h5py; d=h5py.File(sys.argv[1],'r')['/progress/done'][...]; print(f'{d.sum()}/{d.size}')" "$1" 2>/dev/null || echo "unreadable"; }
"$rfdse" run "$sweep" -o "$tmp/ref.h5" --quiet --chips 16 || { echo "FAIL: reference run"; exit 1; }
for delay in 0.3 1.0 2.0 3.5; do
  out="$tmp/kill_$delay.h5"
  setsid mpiexec -n 2 "$rfdse" run "$sweep" -o "$out" --quiet --flush-interval 0 --chips 16 &
  pid=$!
  sleep "$delay"
  kill -9 -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  pkill -9 -f "rfdse run $sweep -o $out" 2>/dev/null
  if [ ! -e "$out" ]; then
    # killed before the file was complete: nothing half-made may be left behind as OUT
    ls "$tmp" | grep -q "kill_$delay.h5.partial" && echo "note: .partial left at $delay s (ok: never the real name)"
    "$rfdse" run "$sweep" -o "$out" --quiet --chips 16 || { echo "FAIL: fresh run after early kill"; fail=1; continue; }
  else
    echo "killed at $delay s with $(done_share "$out") units done"
    "$rfdse" run "$sweep" -o "$out" --quiet --resume --chips 16 || { echo "FAIL: resume after kill at $delay s"; fail=1; continue; }
  fi
  for g in /results /chips /progress; do
    h5diff -r "$tmp/ref.h5" "$out" "$g" "$g" >"$tmp/diff" 2>&1 \
      || { echo "FAIL: $g differs after kill at $delay s + resume"; head "$tmp/diff"; fail=1; }
  done
  echo "ok: killed at $delay s, resumed, identical"
done
# A worker that dies stops the whole run (no hang), and what was written resumes.
out="$tmp/worker.h5"
setsid mpiexec -n 2 "$rfdse" run "$sweep" -o "$out" --quiet --flush-interval 0 --chips 16 >/dev/null 2>&1 &
pid=$!
victim=""
for _ in $(seq 50); do
  victim=$(ps -eo pid,args | awk -v o="$out" '$2 ~ /rfdse$/ && $0 ~ o { p = $1 } END { print p }')
  [ -n "$victim" ] && [ -e "$out" ] && break
  sleep 0.1
done
[ -n "$victim" ] && kill -9 "$victim"
ok=0
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || { ok=1; break; }; sleep 0.1; done
if [ $ok -eq 0 ]; then echo "FAIL: run still alive 30 s after a worker died"; kill -9 -- -"$pid"; fail=1; fi
wait "$pid" 2>/dev/null; rc=$?
if [ -e "$out" ]; then
  echo "worker killed with $(done_share "$out") units done"
  "$rfdse" run "$sweep" -o "$out" --quiet --resume --chips 16 || { echo "FAIL: resume after a worker died"; fail=1; }
  h5diff -r "$tmp/ref.h5" "$out" /results /results >/dev/null 2>&1 || { echo "FAIL: results differ after a worker died"; fail=1; }
fi
echo "ok: a killed worker ended the run (status $rc); resumed identical"
# Resuming a finished file is a no-op that succeeds.
"$rfdse" run "$sweep" -o "$tmp/ref.h5" --quiet --resume --chips 16 || { echo "FAIL: resume of a finished file"; fail=1; }
# Another seed or another sweep is refused with one line, exit 2.
err=$("$rfdse" run "$sweep" -o "$tmp/ref.h5" --seed 99 --chips 16 --resume 2>&1 >/dev/null); rc=$?
{ [ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] && [[ "$err" == *"different seed"* ]]; } \
  || { echo "FAIL: resume with another seed: rc=$rc err=$err"; fail=1; }
err=$("$rfdse" run "$sweep" -o "$tmp/ref.h5" --chips 15 --resume 2>&1 >/dev/null); rc=$?
{ [ $rc -eq 2 ] && [[ "$err" == *"different sweep"* ]]; } || { echo "FAIL: resume with another sweep: rc=$rc err=$err"; fail=1; }
exit $fail
