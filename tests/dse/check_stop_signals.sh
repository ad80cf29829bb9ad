#!/usr/bin/env bash
# check_stop_signals.sh RFDSE: Ctrl-C (SIGINT) and SIGTERM to mpirun, SIGUSR1 to mpirun,
# SIGINT to a lone process.  Each time: the run ends within seconds (chips take about
# 2 s, and mpirun SIGKILLs its ranks 1 s after passing SIGINT/SIGTERM on), rank 0 says
# "N units saved; rerun with --resume" on one line, the progress line is ended, the
# file holds those N units, and --resume completes it bit-identical to a run never
# stopped (issue 20 item 6, issue 19 item 12).
set -u
rfdse=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
# Chips of 2-4 s each on an idle machine (10000 instructions per warp made them 0.35 s
# there: the whole run ended before the stop; it passed only on a loaded machine), so a
# stop always finds chips in flight.
cat >"$tmp/stop.cfg" <<'CFG'
name = "stop";
chips = { count = 6; seed = 11L; };
techniques = ( "baseline", "vl_rf" );
workloads = ( { name = "hot"; base = "hotspot"; insts_per_warp = 60000; } );
CFG
sweep=$tmp/stop.cfg
done_count() { /usr/bin/python3 -c "import sys,h5py; print(int(h5py.File(sys.argv[1],'r')['/progress/done'][...].sum()))" "$1" 2>/dev/null || echo "?"; }
mpiexec -n 2 "$rfdse" run "$sweep" -o "$tmp/ref.h5" --quiet || { echo "FAIL: reference run"; exit 1; }

# stop_run NAME SIGNAL WANT_STATUS LAUNCH...: starts LAUNCH, signals it once the file
# has its first units (or after 3 s), checks what it left.
stop_run() {
  local name=$1 sig=$2 want=$3; shift 3
  local out=$tmp/$name.h5
  setsid "$@" run "$sweep" -o "$out" --flush-interval 0 >"$tmp/$name.out" 2>"$tmp/$name.err" &
  local pid=$! t=0
  while [ $t -lt 30 ] && ! grep -q '\[[1-9][0-9]*/12 units\]' "$tmp/$name.out" 2>/dev/null; do
    sleep 0.1; t=$((t + 1))
  done
  kill -"$sig" "$pid"
  local t0; t0=$(date +%s)
  # 60 s: SIGUSR1 lets the chips in flight finish (2-4 s idle, over 15 s measured at
  # load 10 on two cores), and each rank reaches its next SM run before it stops.
  for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "FAIL: $name: still running 60 s after SIG$sig"; kill -9 -- -"$pid"; fail=1
  fi
  wait "$pid"; local rc=$? secs=$(( $(date +%s) - t0 ))
  local msg; msg=$(grep 'units saved' "$tmp/$name.err")
  echo "$name: SIG$sig -> status $rc after ${secs} s: $msg"
  [ "$rc" -eq "$want" ] || { echo "FAIL: $name: status $rc, expected $want"; cat "$tmp/$name.err"; fail=1; }
  case "$msg" in *"rfdse run: stopped early: "[0-9]*" units saved; rerun with --resume"*) ;;
    *) echo "FAIL: $name: no 'N units saved; rerun with --resume' line"; cat "$tmp/$name.err"; fail=1;; esac
  [ "$(grep -c 'units saved' "$tmp/$name.err")" -eq 1 ] || { echo "FAIL: $name: not one line"; fail=1; }
  [ -z "$(tail -c 1 "$tmp/$name.out")" ] || { echo "FAIL: $name: progress line left open"; fail=1; }
  local saved=${msg#*early: }; saved=${saved%% units*}
  local have; have=$(done_count "$out")
  [ "$have" = "$saved" ] || { echo "FAIL: $name: file holds $have units, message says $saved"; fail=1; }
  mpiexec -n 2 "$rfdse" run "$sweep" -o "$out" --quiet --resume || { echo "FAIL: $name: resume"; fail=1; }
  h5diff -r "$tmp/ref.h5" "$out" /results /results >"$tmp/diff" 2>&1 \
    || { echo "FAIL: $name: /results differ after resume"; head "$tmp/diff"; fail=1; }
}

# mpirun passes SIGINT/SIGTERM on as SIGTERM and exits 1 itself (Open MPI's choice);
# it forwards SIGUSR1 unchanged and returns the ranks' status.  It SIGKILLs the ranks
# 1 s after the SIGTERM by default: at load 10 on two cores that cut the ranks' last
# write and line short (the test failed 1 run of 2), so give them 5 s (docs/driver.md;
# mpirun then returns about 10 s after the signal).
export OMPI_MCA_odls_base_sigkill_timeout=5
stop_run mpirun_int INT 1 mpiexec -n 2 "$rfdse"
stop_run mpirun_term TERM 1 mpiexec -n 2 "$rfdse"
stop_run mpirun_usr1 USR1 3 mpiexec -n 2 "$rfdse"
stop_run lone_int INT 3 "$rfdse"
exit $fail
