#!/usr/bin/env bash
# check_slurm_live.sh RFDSE SWEEP SOURCE_DIR: `rfdse submit` against a real Slurm.
#
# Starts munged, slurmctld and slurmd on localhost (tests/slurm/local_slurm.sh: one node,
# the local cores, throwaway key, config and state under a temporary directory) and:
#  1. submits SWEEP with --chips 3 --seed 99 and checks the results equal a direct
#     `mpirun -n 2 rfdse run --chips 3 --seed 99` bit for bit;
#  2. submits a longer copy, stops it mid-run with `scancel --signal=TERM` (to the ranks;
#     the job ends with status 3, not requeued), resubmits, stops that one with TERM to
#     the batch shell (forwarded through srun), resubmits, and checks the results;
#  3. submits it again with --launcher mpirun and sends what Slurm sends before the time
#     limit (SIGUSR1 to the batch shell): the job must stop, requeue itself, resume and
#     finish with the same results.
# The results and logs live under a directory whose name holds a space and a quote, so
# the quoting of the script is tested end to end.  Exit 77 (skipped, with the reason)
# when Slurm cannot be installed or started here; never a silent pass.
set -u
rfdse=$1 sweep=$2 src=$3
here=$(cd "$(dirname "$0")" && pwd)
SKIP=77
skip() { echo "SKIPPED: $*"; exit $SKIP; }
failed=0
fail() { echo "FAIL: $*"; failed=1; }
t0=$SECONDS
stamp() { echo "[$((SECONDS - t0)) s] $*"; }

# --- Slurm itself: installed if missing and we may; otherwise skipped with the reason.
[ "$(id -u)" -eq 0 ] || skip "needs root: slurmd must run as root to start jobs"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  "$src/scripts/install-deps.sh" slurm-wlm munge >/dev/null 2>&1 ||
    skip "slurm-wlm and munge are not installed and could not be installed"
fi
for b in mpirun h5diff; do command -v "$b" >/dev/null || skip "$b not found"; done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

tmp=$(mktemp -d /tmp/rfdse-slurm.XXXXXX)
# shellcheck source=local_slurm.sh
source "$here/local_slurm.sh"
cleanup() {
  [ "$failed" -ne 0 ] && tail -n 5 "$tmp"/cluster/log/*.log 2>/dev/null
  slurm_down
  [ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
mkdir "$tmp/cluster"
slurm_up "$tmp/cluster" || skip "cannot start a local Slurm: $SLURM_UP_ERROR"
stamp "Slurm up: $(sinfo -h -o '%P %D node(s) %c cpus %T')"

out="$tmp/out dir 'q'"   # a space and a quote: every layer must quote it
mkdir -p "$out"
big="$tmp/big.cfg"       # the same sweep with more chips, long enough to stop mid-run
# (about 9 s of work on 2 ranks: each stop below comes 1.5 s into a job, and what is
# left after two stops must still outlast the third job's 1.5 s, with a wide margin at
# today's model speed: 40 chips stopped being enough when the model got faster)
sed 's/count = 6;/count = 200;/' "$sweep" >"$big"
grep -q 'count = 200;' "$big" || { echo "FAIL: cannot derive the longer sweep"; exit 1; }

same() { # REF OUT WHAT
  for g in /results /chips /progress; do
    h5diff -r "$1" "$2" "$g" "$g" >"$tmp/diff" 2>&1 || { fail "$3: $g differs"; head -n 5 "$tmp/diff"; return 1; }
  done
  stamp "ok: $3: /results /chips /progress identical to mpirun -n 2"
}
field() { scontrol show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n1; }
wait_end() { # ID SECONDS: waits for a final state, prints it
  local s
  for _ in $(seq $(($2 * 5))); do
    s=$(field "$1" JobState)
    case $s in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE)
      echo "$s"; return 0 ;;
    esac
    sleep 0.2
  done
  echo "TIMEOUT_WAITING(${s:-unknown})"
}
wait_running() { # ID FILE SECONDS: running and the results file created
  for _ in $(seq $(($3 * 5))); do
    [ "$(field "$1" JobState)" = RUNNING ] && [ -e "$2" ] && return 0
    sleep 0.2
  done
  return 1
}
log_of() { cat "$out/tiny_run-$1.out" "$out/tiny_run-$1.err" 2>/dev/null; }
submit() { RFDSE_REQUEUE_MIN_SECONDS=0 "$rfdse" submit "$@" --ntasks-per-node 2 --time 10 --output-dir "$out" 2>"$tmp/submit.err"; }

mpirun -n 2 "$rfdse" run "$sweep" -o "$tmp/ref.h5" --chips 3 --seed 99 --quiet || { echo "FAIL: reference run"; exit 1; }
mpirun -n 2 "$rfdse" run "$big" -o "$tmp/ref_big.h5" --quiet || { echo "FAIL: reference run (200 chips)"; exit 1; }
stamp "reference runs done"

# 1. A whole sweep through the queue, with --chips/--seed passed on to `rfdse run`.
id=$(submit "$sweep" -o "$out/tiny.h5" --chips 3 --seed 99) || { cat "$tmp/submit.err"; fail "submit"; exit 1; }
stamp "job $id submitted: $(cat "$tmp/submit.err")"
[ -f "$out/tiny_run.sbatch" ] || fail "the script was not kept in the output directory"
st=$(wait_end "$id" 90)
[ "$st" = COMPLETED ] && [ "$(field "$id" ExitCode)" = 0:0 ] || { fail "job $id: $st $(field "$id" ExitCode)"; log_of "$id"; }
same "$tmp/ref.h5" "$out/tiny.h5" "job $id (whole sweep, --chips 3 --seed 99, launcher auto)"
log_of "$id" | grep -q '^rfdse: \[' || fail "job $id: no progress lines in its log"

# 2. Stopped mid-run by SIGTERM to the ranks, resubmitted, resumed.
id=$(submit "$big" -o "$out/big_term.h5") || { cat "$tmp/submit.err"; exit 1; }
wait_running "$id" "$out/big_term.h5" 60 || fail "job $id never ran"
sleep 1.5
stamp "job $id running: scancel --signal=TERM"
scancel --signal=TERM "$id"
st=$(wait_end "$id" 60)
[ "$st" = FAILED ] && [ "$(field "$id" ExitCode)" = 3:0 ] && [ "$(field "$id" Restarts)" = 0 ] ||
  { fail "job $id after TERM: $st exit $(field "$id" ExitCode) restarts $(field "$id" Restarts) (want FAILED 3:0, no requeue)"; log_of "$id"; }
log_of "$id" | grep -q 'stopped early' || fail "job $id: no 'stopped early' in its log"
# ... resubmitted (it must resume), and stopped again through the batch shell, which
# forwards the stop through srun as SIGUSR1 and must not requeue for a stop request ...
id2=$(submit "$big" -o "$out/big_term.h5") || { cat "$tmp/submit.err"; exit 1; }
grep -q 'the job resumes it' "$tmp/submit.err" || fail "submit did not say it resumes"
wait_running "$id2" "$out/big_term.h5" 60 || fail "job $id2 never ran"
sleep 1.5
stamp "job $id2 running: scancel --batch --signal=TERM"
scancel --batch --signal=TERM "$id2"
st=$(wait_end "$id2" 60)
[ "$st" = FAILED ] && [ "$(field "$id2" ExitCode)" = 3:0 ] && [ "$(field "$id2" Restarts)" = 0 ] ||
  { fail "job $id2 after TERM to the shell: $st exit $(field "$id2" ExitCode) restarts $(field "$id2" Restarts) (want FAILED 3:0, no requeue)"; log_of "$id2"; }
log_of "$id2" | grep -q 'start 1 .*via srun, --resume' || fail "job $id2 did not resume with srun"
log_of "$id2" | grep -q 'SIGTERM received (request)' || fail "job $id2: the shell did not get TERM"
log_of "$id2" | grep -q 'stopped early' || fail "job $id2: ranks did not stop early (USR1 not forwarded by srun?)"
# ... and resubmitted once more to finish.
id3=$(submit "$big" -o "$out/big_term.h5") || { cat "$tmp/submit.err"; exit 1; }
st=$(wait_end "$id3" 90)
[ "$st" = COMPLETED ] || { fail "resubmitted job $id3: $st"; log_of "$id3"; }
log_of "$id3" | grep -q -- '--resume' || fail "job $id3 did not resume"
same "$tmp/ref_big.h5" "$out/big_term.h5" "job $id stopped by TERM to the ranks, $id2 by TERM to the shell, $id3 resumed"

# 3. The time-limit warning (SIGUSR1 to the batch shell), forwarded through mpirun:
#    stop, requeue, resume, finish.
id=$(submit "$big" -o "$out/big_usr1.h5" --launcher mpirun) || { cat "$tmp/submit.err"; exit 1; }
wait_running "$id" "$out/big_usr1.h5" 60 || fail "job $id never ran"
sleep 1.5
stamp "job $id running: scancel --batch --signal=USR1 (the time-limit warning)"
scancel --batch --signal=USR1 "$id"
st=$(wait_end "$id" 120)
[ "$st" = COMPLETED ] && [ "$(field "$id" Restarts)" = 1 ] ||
  { fail "job $id after USR1: $st restarts $(field "$id" Restarts) (want COMPLETED after 1 requeue)"; log_of "$id"; }
log_of "$id" | grep -q 'requeueing' || fail "job $id: did not requeue itself"
log_of "$id" | grep -q 'stopped early' || fail "job $id: the first start did not stop early (signal not forwarded?)"
log_of "$id" | grep -q 'start 2 .*--resume' || fail "job $id: the second start did not resume"
same "$tmp/ref_big.h5" "$out/big_usr1.h5" "job $id stopped by the time-limit signal, requeued, resumed"

stamp "done"
exit $failed
